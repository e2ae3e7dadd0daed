#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "reports/atomic_file.hpp"
#include "reports/results_file.hpp"
#include "catch_compat.hpp"
#include "model/errors.hpp"
#include "reports/json_writer.hpp"
#include "matrix/html_writer.hpp"
#include "matrix/markdown_writer.hpp"
#include "matrix/matrix_document.hpp"
#include "matrix/summary_writer.hpp"
#include "report_fixture.hpp"

using namespace hostcb;

namespace {

const std::string kHostile = "replay/api=<script>alert(1)</script>|x&y\"'";

// One run's results file: `statuses` for scenarios a, b, c and a hostile id, in an
// environment with this driver and runtime.
std::string write_run(const std::string& name, const std::string& driver, int runtime,
                      std::vector<Status> statuses) {
  RunReport report = sample_report();
  report.environment.driver = driver;
  report.environment.runtime_version = runtime;
  report.results.clear();
  const char* ids[] = {"replay/a", "replay/b", "replay/c", nullptr};
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    Result r;
    r.id = ids[i] ? ids[i] : kHostile;
    r.family = "replay";
    r.status = statuses[i];
    if (statuses[i] == Status::failed) r.reason = "</td><b>boom</b> | `x`";
    report.results.push_back(r);
  }
  std::string path = std::string(HOSTCB_TEST_TMP) + "/" + name;
  write_file_atomically(path, results_json(report));
  return path;
}

// A run through one layer on write_run's machine: its versions, or none with `format_version`
// 2 (a file written before versions: the describe text is all the environment has).
std::string write_layered_run(const std::string& name, std::vector<std::pair<std::string, std::string>> versions,
                              const std::string& describe, int format_version = kResultsFormatVersion) {
  RunReport report = sample_report();
  report.environment.adapters = {{"cuda_bindings_runtime", "/lib/libhostcb_python_runtime.so", describe, versions}};
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(results_json(report));
  if (format_version == 2) {
    doc["format_version"] = 2;
    doc["environment"]["adapters"][0].erase("versions");
  }
  std::string path = std::string(HOSTCB_TEST_TMP) + "/" + name;
  write_file_atomically(path, doc.dump(1));
  return path;
}

}  // namespace

TEST_CASE("the matrix has a column per environment and finds what differs", "[matrix]") {
  Matrix m;
  add_results_file(m, write_run("m1.json", "580.159.04", 13000, {Status::passed, Status::passed, Status::skipped, Status::passed}));
  add_results_file(m, write_run("m2.json", "580.159.04", 12040, {Status::passed, Status::failed, Status::skipped, Status::error}));
  REQUIRE(m.columns.size() == 2);
  CHECK(m.columns[0].label == "580.159.04 · CUDA 13.0 · NVIDIA H200 · gpu-host-7");
  CHECK(m.columns[1].runtime == "12.4");
  CHECK(m.scenarios.size() == 4);
  std::vector<std::string> differing = m.differing();
  REQUIRE(differing.size() == 2);
  CHECK(differing[0] == "replay/b");
  CHECK(differing[1] == kHostile);
}

TEST_CASE("changes since the previous matrix are found by scenario and environment", "[matrix]") {
  Matrix before;
  add_results_file(before, write_run("p1.json", "575.1", 13000, {Status::passed, Status::failed, Status::passed}));
  std::string previous = std::string(HOSTCB_TEST_TMP) + "/previous_matrix.json";
  write_file_atomically(previous, matrix_json(before));
  Matrix now;  // tonight: a newer driver on the same machine and runtime
  add_results_file(now, write_run("n1.json", "580.159.04", 13000, {Status::passed, Status::passed, Status::error}));
  std::vector<MatrixChange> changes = changes_since(load_matrix_json(previous), now);
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].id == "replay/b");
  CHECK(changes[0].before == Status::failed);
  CHECK(changes[0].after == Status::passed);
  CHECK(changes[1].id == "replay/c");
  CHECK(changes[1].after == Status::error);
}

TEST_CASE("differing means a result not the same in every environment that has the scenario", "[matrix]") {
  Matrix m;
  add_results_file(m, write_run("d1.json", "580", 13000, {Status::failed, Status::skipped, Status::passed, Status::passed}));
  add_results_file(m, write_run("d2.json", "580", 12040, {Status::failed, Status::failed, Status::xpass, Status::xfail}));
  // a: failed everywhere, the same; b: skipped, then failed; c: passed, then xpassed;
  // hostile: passed, then a known failure (xfail): each of the last three differs.
  std::vector<std::string> differing = m.differing();
  REQUIRE(differing.size() == 3);
  CHECK(differing[0] == "replay/b");
  CHECK(differing[1] == "replay/c");
  CHECK(differing[2] == kHostile);
  CHECK(is_bad(Status::xpass));
  CHECK(is_bad(Status::failed));
  CHECK(is_bad(Status::error));
  CHECK_FALSE(is_bad(Status::xfail));
  CHECK_FALSE(is_bad(Status::skipped));
  CHECK_FALSE(is_bad(Status::passed));
}

TEST_CASE("a change between two bad statuses, or two good ones, is still a change", "[matrix]") {
  Matrix before;
  add_results_file(before, write_run("q1.json", "575.1", 13000, {Status::failed, Status::passed, Status::skipped}));
  std::string previous = std::string(HOSTCB_TEST_TMP) + "/previous_matrix_q.json";
  write_file_atomically(previous, matrix_json(before));
  Matrix now;
  add_results_file(now, write_run("q2.json", "580.159.04", 13000, {Status::error, Status::passed, Status::passed}));
  std::vector<MatrixChange> changes = changes_since(load_matrix_json(previous), now);
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].id == "replay/a");
  CHECK(changes[0].before == Status::failed);
  CHECK(changes[0].after == Status::error);
  CHECK(changes[1].id == "replay/c");
  CHECK(changes[1].before == Status::skipped);
  CHECK(changes[1].after == Status::passed);
}

TEST_CASE("every scenario id and message is escaped in Markdown and HTML", "[matrix]") {
  MatrixReport report;
  add_results_file(report.matrix, write_run("e1.json", "580", 13000, {Status::passed, Status::passed, Status::passed, Status::passed}));
  add_results_file(report.matrix, write_run("e2.json", "580", 12040, {Status::passed, Status::failed, Status::passed, Status::failed}));
  std::string md = matrix_markdown(report);
  CHECK(md.find("<script>") == std::string::npos);
  CHECK(md.find("&lt;script&gt;alert\\(1\\)&lt;/script&gt;\\|x&amp;y") != std::string::npos);
  std::string html = matrix_html(report);
  CHECK(html.find("<script>") == std::string::npos);
  CHECK(html.find("<b>boom</b>") == std::string::npos);
  CHECK(html.find("&lt;/td&gt;&lt;b&gt;boom&lt;/b&gt;") != std::string::npos);
  CHECK(html.find("http") == html.find("http://www.w3.org/1999/xhtml"));  // nothing fetched from a network
#if HOSTCB_HAVE_XMLLINT
  std::string path = std::string(HOSTCB_TEST_TMP) + "/matrix.html";
  write_file_atomically(path, html);
  int rc = std::system((std::string(HOSTCB_XMLLINT) + " --noout " + path + " >/dev/null 2>&1").c_str());
  CHECK(rc == 0);  // well-formed: nothing the messages held broke the page's structure
#endif
}

TEST_CASE("an error's cell and first failure say what ended it, not the failures that followed", "[matrix]") {
  // Issue 43, item 5: the summary's first failures showed "host function #0 was called 0 times"
  // where the layer had raised (the JUnit had the reason).
  RunReport report = sample_report();
  report.results.clear();
  Result r;
  r.id = "replay/a";
  r.family = "replay";
  r.status = Status::error;
  r.reason = "graph_set_host_node(...) failed: RuntimeError: no node";
  Failure f;
  f.message = "host function #0 was called 0 times; expected 1";
  r.failures.push_back(f);
  Result failed = r;
  failed.id = "replay/b";
  failed.status = Status::failed;
  failed.reason = "";
  report.results = {r, failed};
  const std::string path = std::string(HOSTCB_TEST_TMP) + "/error_reason.json";
  write_file_atomically(path, results_json(report));
  MatrixReport matrix;
  add_results_file(matrix.matrix, path);
  CHECK(matrix.matrix.cell("replay/a", 0)->message == "graph_set_host_node(...) failed: RuntimeError: no node");
  CHECK(contains(matrix.matrix.cell("replay/b", 0)->message, "host function #0 was called 0 times"));
  CHECK(contains(matrix_summary(matrix), "RuntimeError\\: no node"));  // in the summary's first failures
}

TEST_CASE("one meaning of differs: the tile, the lists and the summary agree, and a scenario a layer lacks is none", "[matrix]") {
  // Issue 43, item 9: over four cuda-bindings versions the page's tile said "0 differ" above
  // "What differs: 146", the fix (xfail, xfail, xfail, passed) being what the page is for;
  // over two layers every scenario one of them lacks counted as a difference.
  MatrixReport report;
  add_results_file(report.matrix, write_run("x1.json", "580", 13000, {Status::xfail, Status::passed, Status::passed}));
  add_results_file(report.matrix, write_run("x2.json", "580", 12040, {Status::passed, Status::passed}));  // lacks c
  Matrix& m = report.matrix;
  CHECK(m.differing() == std::vector<std::string>{"replay/a"});
  CHECK_FALSE(m.differs("replay/c"));  // in one environment only
  const MatrixDocument doc = matrix_document(report);
  CHECK(doc.differing.size() == 1);
  CHECK(doc.explanation.rows == 1);
  const std::string html = matrix_html(report);
  CHECK(html.find("<b>1</b>differ across environments") != std::string::npos);
  CHECK(html.find("Not the same everywhere it ran: 1") != std::string::npos);
  CHECK(contains(matrix_summary(report), "### What differs: 1 scenario(s)"));
}

TEST_CASE("the page leads with what changed", "[matrix]") {
  MatrixReport report;
  add_results_file(report.matrix, write_run("l1.json", "580", 13000, {Status::passed, Status::passed}));
  add_results_file(report.matrix, write_run("l2.json", "580", 12040, {Status::passed, Status::failed}));
  std::string html = matrix_html(report);
  std::size_t changed = html.find("What changed"), every = html.find("Every scenario");
  REQUIRE(changed != std::string::npos);
  CHECK(changed < every);
  CHECK(html.find("Not the same everywhere it ran: 1") != std::string::npos);
  CHECK(html.find("No previous matrix was given") != std::string::npos);
}

TEST_CASE("the Markdown and the HTML page lay out one document, built once", "[matrix]") {
  MatrixReport report;
  add_results_file(report.matrix, write_run("d1.json", "580", 13000, {Status::passed, Status::passed}));
  add_results_file(report.matrix, write_run("d2.json", "580", 12040, {Status::passed, Status::failed}));
  MatrixDocument doc = matrix_document(report);
  CHECK(doc.scenario_count == 2);
  CHECK(doc.cells == 4);
  CHECK(doc.bad_cells == 1);
  REQUIRE(doc.differing.size() == 1);
  REQUIRE(doc.columns.size() == 2);
  REQUIRE(doc.environments.size() == 2);
  CHECK(doc.environments[1].results == "1 passed, 1 failed, 0 error, 0 skipped");
  const std::string md = matrix_markdown(report), html = matrix_html(report);
  for (const auto& column : doc.columns) CHECK(contains(md, markdown_cell(column.short_label)));
  CHECK(contains(md, "| " + markdown_cell(doc.differing[0].id) + " | passed | **failed** |"));
  CHECK(contains(md, doc.environments[1].results));
  CHECK(contains(html, "<b>1</b>failed, error or xpass cells"));
  CHECK(contains(html, "<b>4</b>cells"));
  CHECK(contains(html, doc.environments[1].results));
}

TEST_CASE("a cell's message names the expectation that matched, then what happened", "[matrix]") {
  std::string path = std::string(HOSTCB_TEST_TMP) + "/expected_cells.json";
  write_file_atomically(path, results_json(sample_report()));
  Matrix m;
  add_results_file(m, path);
  const MatrixCell* xfail = m.cell("stream_callback/api=driver/callbacks=100", 0);
  REQUIRE(xfail);
  CHECK(xfail->status == Status::xfail);
  CHECK(xfail->message ==
        "driver bug 4711 (https://example.invalid/4711); [launch 4] [callback#2] cases/stream_callback.cu:77: "
        "received status 700; expected 0");
  const MatrixCell* error = m.cell("stream_callback/api=driver/callbacks=5", 0);
  REQUIRE(error);
  CHECK(error->message == "cuLaunchHostFunc(stream, fn, ud) failed: CUDA_ERROR_ILLEGAL_ADDRESS (700) at cases/x.cu:9");
}

TEST_CASE("a file that is not a results file is refused with its name", "[matrix]") {
  std::string path = std::string(HOSTCB_TEST_TMP) + "/not_results.json";
  write_file_atomically(path, "{\"format\": \"hostcb-list\"}");
  Matrix m;
  std::string refusal;
  try {
    add_results_file(m, path);
  } catch (const UsageError& e) {
    refusal = e.what();
  }
  CHECK(contains(refusal, "not_results.json: not a hostcb results file"));
}

TEST_CASE("Markdown in ids and messages comes out as text, control characters shown", "[matrix]") {
  CHECK(markdown_cell("stub/[click](javascript:alert(1))") == "stub/\\[click\\]\\(javascript\\:alert\\(1\\)\\)");
  CHECK(markdown_cell("![img](http://x/t.png)") == "\\!\\[img\\]\\(http\\://x/t.png\\)");
  CHECK(markdown_cell("a\x01" "b\x7f") == "a\\x01b\\x7f");
  CHECK(markdown_cell("stub/one\nstub/two") == "stub/one\\nstub/two");  // one id, not cut, not two lines
  CHECK(markdown_cell("*b* _i_ `c` ~s~ | <t> &") == "\\*b\\* \\_i\\_ \\`c\\` \\~s\\~ \\| &lt;t&gt; &amp;");
}

namespace {
std::string report_refusal(const std::string& name, const std::string& content, bool previous = false) {
  std::string path = std::string(HOSTCB_TEST_TMP) + "/" + name;
  write_file_atomically(path, content);
  try {
    if (previous) {
      load_matrix_json(path);
    } else {
      Matrix m;
      add_results_file(m, path);
    }
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

std::string results_with(const std::string& from, const std::string& to) {
  std::string text = results_json(sample_report());
  std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}
}  // namespace

// What `hostcb result` makes of a file: read_results_file's refusal, or "".
std::string result_refusal(const std::string& name, const std::string& content) {
  std::string path = std::string(HOSTCB_TEST_TMP) + "/" + name;
  write_file_atomically(path, content);
  try {
    read_results_file(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("a results file with a device out of range is refused, not read past the device list", "[matrix]") {
  CHECK(report_refusal("ok_device.json", results_json(sample_report())).empty());
  CHECK(contains(report_refusal("dev_neg.json", results_with("\"selected_device\": 0", "\"selected_device\": -2")),
                 "\"selected_device\" must be from -1 to 4095, not -2"));
  // `result` reads the file as `report` does (issue 42, item 11: -7, -2 and 5000 were exit 0
  // for result, exit 2 for report).
  for (const char* device : {"-7", "-2", "5000"}) {
    INFO(device);
    const std::string text = results_with("\"selected_device\": 0", std::string("\"selected_device\": ") + device);
    const std::string said = result_refusal("dev_result_reader.json", text);
    CHECK(contains(said, std::string("\"selected_device\" must be from -1 to 4095, not ") + device));
    CHECK(report_refusal("dev_result_reader.json", text) == said);
  }
  CHECK(contains(report_refusal("dev_big.json", results_with("\"selected_device\": 0", "\"selected_device\": 1e300")),
                 "\"selected_device\" must be an integer"));
  CHECK(contains(report_refusal("dev_result.json", results_with("\"device\": null", "\"device\": -7")),
                 "\"device\" must be from 0"));
}

TEST_CASE("a results file or matrix in a format version this build cannot read is refused", "[matrix]") {
  CHECK(contains(report_refusal("v99.json", results_with("\"format_version\": 3", "\"format_version\": 99")),
                 "format_version 99; this hostcb reads 1, 2 or 3"));
  CHECK(contains(report_refusal("vtwo.json", results_with("\"format_version\": 3", "\"format_version\": \"two\"")),
                 "format_version \"two\"; this hostcb reads 1, 2 or 3"));
  CHECK(contains(report_refusal("vnone.json", results_with("\"format_version\": 3,", "")),
                 "format_version missing"));
  Matrix m;
  std::string matrix = matrix_json(m);
  CHECK(report_refusal("prev_ok.json", matrix, true).empty());
  matrix.replace(matrix.find("\"format_version\": 1"), 19, "\"format_version\": 7");
  CHECK(contains(report_refusal("prev7.json", matrix, true), "prev7.json: hostcb matrix"));
  CHECK(contains(report_refusal("prev7b.json", matrix, true), "format_version 7; this hostcb reads 1"));
}

TEST_CASE("a results file nested too deep or not JSON is refused with its position", "[matrix]") {
  std::string deep = std::string(200000, '[') + std::string(200000, ']');
  CHECK(contains(report_refusal("deep.json", deep), "deep.json: not a hostcb results file (1:65: nested more than 64 levels deep)"));
  CHECK(contains(report_refusal("broken.json", "{\n  \"format\": }"), "broken.json: not a hostcb results file (2:13: not valid JSON"));
}

TEST_CASE("runs that differ only in a layer's versions are two columns, each labelled with its versions", "[matrix][layers]") {
  MatrixReport report;
  Matrix& m = report.matrix;
  add_results_file(m, write_layered_run("v1.json", {{"cuda-bindings", "13.3.1"}}, "Python 3.12.3; cuda-bindings"));
  add_results_file(m, write_layered_run("v2.json", {{"cuda-bindings", "13.5.0"}}, "Python 3.12.3; cuda-bindings"));
  REQUIRE(m.columns.size() == 2);
  CHECK(m.columns[0].label == "580.159.04 · CUDA 13.0 · NVIDIA H200 · gpu-host-7 · cuda-bindings 13.3.1");
  CHECK(m.columns[1].label == "580.159.04 · CUDA 13.0 · NVIDIA H200 · gpu-host-7 · cuda-bindings 13.5.0");
  CHECK(m.columns[0].key == "gpu-host-7|NVIDIA H200|0|13.0|cuda_bindings_runtime cuda-bindings=13.3.1");
  CHECK(m.columns[1].key == "gpu-host-7|NVIDIA H200|0|13.0|cuda_bindings_runtime cuda-bindings=13.5.0");
  std::string md = matrix_markdown(report);  // the table heads tell the two apart
  CHECK(contains(md, "\\#1 580.159.04, CUDA 13.0, device 0, cuda-bindings 13.3.1 |"));
  CHECK(contains(md, "\\#2 580.159.04, CUDA 13.0, device 0, cuda-bindings 13.5.0 |"));
  // The environments table, with what went through the layer (no id of this run names it).
  CHECK(contains(md, "| cuda\\_bindings\\_runtime\\: cuda-bindings 13.3.1 \\(ran 0 scenarios\\: 0 passed"));
  std::string html = matrix_html(report);
  CHECK(contains(html, "CUDA 13.0 · dev 0<br/>cuda-bindings 13.5.0</span>"));
}

TEST_CASE("the same environment and layer versions twice keep the key they had, numbered", "[matrix][layers]") {
  Matrix m;
  add_results_file(m, write_run("same1.json", "580.159.04", 13000, {Status::passed}));
  add_results_file(m, write_run("same2.json", "580.159.04", 13000, {Status::passed}));
  add_results_file(m, write_layered_run("same3.json", {{"cuda-bindings", "13.3.1"}, {"cuda-python", "13.3.1"}}, "x"));
  add_results_file(m, write_layered_run("same4.json", {{"cuda-bindings", "13.3.1"}, {"cuda-python", "13.3.1"}}, "x"));
  REQUIRE(m.columns.size() == 4);
  CHECK(m.columns[0].key == "gpu-host-7|NVIDIA H200|0|13.0");  // no layers: last night's matrix still matches
  CHECK(m.columns[1].key == "gpu-host-7|NVIDIA H200|0|13.0#2");
  CHECK(m.columns[2].key == "gpu-host-7|NVIDIA H200|0|13.0|cuda_bindings_runtime cuda-bindings=13.3.1,cuda-python=13.3.1");
  CHECK(m.columns[3].key == m.columns[2].key + "#2");
  CHECK(m.columns[3].label == "580.159.04 · CUDA 13.0 · NVIDIA H200 · gpu-host-7 · cuda-bindings 13.3.1, cuda-python 13.3.1");
}

TEST_CASE("a format 2 results file merges with format 3 ones, told apart by its describe text", "[matrix][layers]") {
  const std::string python = "Python 3.12.3 (/opt/venv/bin/python3); cuda-bindings 13.3.1; cuda-python 13.3.1; via x";
  Matrix m;
  add_results_file(m, write_layered_run("old1.json", {}, python, 2));
  add_results_file(m, write_layered_run("old2.json", {}, "Python 3.12.3 (/v); cuda-bindings 13.5.0", 2));
  add_results_file(m, write_layered_run("new.json", {{"cuda-bindings", "13.3.1"}}, python));
  REQUIRE(m.columns.size() == 3);
  CHECK(m.columns[0].key != m.columns[1].key);
  CHECK(m.columns[0].key.find('#') == std::string::npos);
  CHECK(m.columns[1].key.find('#') == std::string::npos);
  // The path in parentheses goes, and the text is cut to a label's length.
  CHECK(m.columns[0].label ==
        "580.159.04 · CUDA 13.0 · NVIDIA H200 · gpu-host-7 · cuda_bindings_runtime: Python 3.12.3; cuda-bindings 13.3.1; cuda-pyt...");
  CHECK(m.columns[1].label ==
        "580.159.04 · CUDA 13.0 · NVIDIA H200 · gpu-host-7 · cuda_bindings_runtime: Python 3.12.3; cuda-bindings 13.5.0");
  CHECK(m.columns[2].label == "580.159.04 · CUDA 13.0 · NVIDIA H200 · gpu-host-7 · cuda-bindings 13.3.1");
  CHECK(m.scenarios.size() == 6);
  CHECK(m.cell("replay/api=driver/replays=5", 2));
}

TEST_CASE("the fixtures: an old format 2 file and a format 3 one merge into two labelled columns", "[matrix][layers]") {
  Matrix m;
  add_results_file(m, std::string(HOSTCB_INPUTS_DIR) + "/format2_cuda_bindings_13.3.1.json");
  add_results_file(m, std::string(HOSTCB_INPUTS_DIR) + "/format3_cuda_bindings_13.5.0.json");
  REQUIRE(m.columns.size() == 2);
  CHECK(contains(m.columns[0].label, "· gpu-h200-1 · cuda_bindings_runtime: Python 3.12.3; cuda-bindings 13.3.1;"));
  CHECK(contains(m.columns[1].label, "· gpu-h200-1 · cuda-bindings 13.5.0, cuda-python 13.5.0"));
  CHECK(m.differing().size() == 4);  // replays 2 and 5 crashed under 13.3.1
}

TEST_CASE("the matrix JSON keeps each column's layers", "[matrix][layers]") {
  Matrix m;
  add_results_file(m, write_layered_run("j1.json", {{"cuda-bindings", "13.3.1"}}, "Python; cuda-bindings 13.3.1"));
  auto doc = nlohmann::ordered_json::parse(matrix_json(m));
  const auto& layer = doc["columns"][0]["layers"][0];
  CHECK(layer["name"] == "cuda_bindings_runtime");
  CHECK(layer["versions"]["cuda-bindings"] == "13.3.1");
  CHECK(layer["describe"] == "Python; cuda-bindings 13.3.1");
  std::string path = std::string(HOSTCB_TEST_TMP) + "/layers_matrix.json";
  write_file_atomically(path, matrix_json(m));
  CHECK(load_matrix_json(path).columns[0].key == m.columns[0].key);
}
