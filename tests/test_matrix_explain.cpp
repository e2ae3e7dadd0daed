#include <functional>
#include <optional>

#include "catch_compat.hpp"
#include "model/errors.hpp"
#include "matrix/matrix_explain.hpp"
#include "matrix/html_writer.hpp"
#include "matrix/markdown_writer.hpp"

using namespace hostcb;

namespace {

// Every combination of the axes ("name=v1,v2,...") as ids of `family`, in order.
std::vector<std::string> ids(const std::string& family, const std::vector<std::pair<std::string, std::vector<std::string>>>& axes) {
  std::vector<std::string> out = {family};
  for (const auto& [axis, values] : axes) {
    std::vector<std::string> next;
    for (const auto& id : out)
      for (const auto& v : values) next.push_back(id + "/" + axis + "=" + v);
    out = next;
  }
  return out;
}

bool has(const std::string& id, const std::string& part) { return id.find("/" + part) != std::string::npos; }

// A matrix of `columns` environments where `status(id, column)` says each cell (nullopt: no cell).
using StatusOf = std::function<std::optional<Status>(const std::string& id, std::size_t column)>;
Matrix matrix_of(const std::vector<std::string>& scenarios, std::size_t columns, const StatusOf& status) {
  Matrix m;
  for (std::size_t c = 0; c < columns; ++c) {
    MatrixColumn column;
    column.key = str("k", c);
    m.columns.push_back(column);
  }
  for (const auto& id : scenarios) {
    m.scenarios.push_back(id);
    for (std::size_t c = 0; c < columns; ++c)
      if (auto s = status(id, c)) m.cells[id][c] = MatrixCell{*s, ""};
  }
  return m;
}

std::vector<std::string> texts(const DiffExplanation& why) {
  std::vector<std::string> out;
  for (const auto& line : why.lines) out.push_back(line.text());
  return out;
}

const std::vector<std::pair<std::string, std::vector<std::string>>> kReplayAxes = {
    {"api", {"driver", "runtime"}},
    {"forward", {"direct", "graph_owned", "cuda_bindings_runtime", "cuda_bindings_driver"}},
    {"build", {"capture_global", "capture_thread", "node"}},
    {"replays", {"1", "2", "5", "100"}},
    {"sync", {"each", "end"}}};

}  // namespace

TEST_CASE("72 differing rows of the replay bug come out as one line, and a skipped family as another", "[matrix][explain]") {
  std::vector<std::string> scenarios = ids("replay", kReplayAxes);  // 192
  for (const auto& id : ids("stream_callback", {{"api", {"driver", "runtime"}}, {"callbacks", {"1", "5"}}}))
    scenarios.push_back(id);
  // cuda-bindings 13.3.1 and 13.3.2 crash on launch 2; 13.5.0 does not, on a runtime without stream callbacks.
  Matrix m = matrix_of(scenarios, 3, [](const std::string& id, std::size_t c) -> std::optional<Status> {
    if (id.rfind("stream_callback/", 0) == 0) return c == 2 ? Status::skipped : Status::passed;
    bool bug = has(id, "forward=cuda_bindings_") && !has(id, "replays=1/");
    return bug && c < 2 ? Status::error : Status::passed;
  });
  DiffExplanation why = explain_differences(m);
  CHECK(why.rows == 76);
  REQUIRE(why.lines.size() <= 2);
  CHECK(texts(why) == std::vector<std::string>{
                          "replay: forward=cuda_bindings_* and replays ≥ 2 (72 scenarios): error in #1 #2, passed in #3",
                          "stream_callback: every scenario (4 scenarios): passed in #1 #2, skipped in #3"});
}

TEST_CASE("a group no single axis describes gets a conjunction, a list of values or a bound", "[matrix][explain]") {
  std::vector<std::string> scenarios = ids("replay", kReplayAxes);
  Matrix m = matrix_of(scenarios, 2, [](const std::string& id, std::size_t c) -> std::optional<Status> {
    bool broken = has(id, "api=driver") && (has(id, "build=capture_thread") || has(id, "build=node"));
    bool slow = has(id, "forward=direct") && has(id, "api=runtime") && !has(id, "replays=100");
    if (c == 1 && broken) return Status::failed;
    if (c == 1 && slow) return Status::error;
    return Status::passed;
  });
  DiffExplanation why = explain_differences(m);
  CHECK(why.rows == 64 + 18);
  CHECK(texts(why) == std::vector<std::string>{
                          "replay: api=driver and build in {capture_thread, node} (64 scenarios): passed in #1, failed in #2",
                          "replay: api=runtime and forward=direct and replays ≤ 5 (18 scenarios): passed in #1, error in #2"});
}

TEST_CASE("a pattern never covers a row that differs otherwise or not at all", "[matrix][explain]") {
  // replays ≥ 2 errs in column 2, except replays=5 with sync=end, which passes everywhere.
  Matrix m = matrix_of(ids("replay", kReplayAxes), 2, [](const std::string& id, std::size_t c) -> std::optional<Status> {
    bool bad = !has(id, "replays=1/") && !(has(id, "replays=5/") && has(id, "sync=end"));
    return bad && c == 1 ? Status::error : Status::passed;
  });
  DiffExplanation why = explain_differences(m);
  CHECK(why.rows == 120);
  CHECK(texts(why) == std::vector<std::string>{
                          "replay: replays in {2, 100} (96 scenarios): passed in #1, error in #2",
                          "replay: replays=5 and sync=each (24 scenarios): passed in #1, error in #2"});
  for (const auto& line : why.lines) CHECK(line.pattern.find("replays ≥ 2") == std::string::npos);
}

TEST_CASE("rows no few patterns describe are listed, the first five and how many more", "[matrix][explain]") {
  std::vector<std::string> scenarios;
  for (const char* name : {"a", "b", "c", "d", "e", "f", "g", "h"}) scenarios.push_back(std::string("stub/") + name);
  Matrix m = matrix_of(scenarios, 2, [](const std::string& id, std::size_t c) -> std::optional<Status> {
    if (id == "stub/h") return Status::passed;
    if (c == 1 && id == "stub/g") return std::nullopt;  // not run in #2: no difference (Matrix::differs)
    return c == 1 ? Status::failed : Status::passed;
  });
  DiffExplanation why = explain_differences(m);
  CHECK(why.rows == 6);
  CHECK(texts(why) == std::vector<std::string>{
                          "stub (6 scenarios): passed in #1, failed in #2: stub/a, stub/b, stub/c, stub/d, stub/e and 1 more"});
}

TEST_CASE("whole families that differ the same way share a line and the lines are capped", "[matrix][explain]") {
  std::vector<std::string> scenarios;
  for (int f = 0; f < 14; ++f)
    for (const char* v : {"1", "2"}) scenarios.push_back(str("fam", f, "/n=", v));
  // Family f's status in column c is bit c of f + 1: 14 ways of differing over 4 columns.
  Matrix m = matrix_of(scenarios, 4, [](const std::string& id, std::size_t c) -> std::optional<Status> {
    int f = std::stoi(id.substr(3, id.find('/') - 3));
    return ((f + 1) >> c) & 1 ? Status::failed : Status::passed;
  });
  DiffExplanation why = explain_differences(m);
  CHECK(why.rows == 28);
  CHECK(why.lines.size() == kMaxDiffLines);
  CHECK(why.lines_left_off == 2);
  CHECK(why.rows_left_off == 4);

  Matrix same = matrix_of(scenarios, 2, [](const std::string& id, std::size_t c) -> std::optional<Status> {
    return c == 1 && id.rfind("fam1", 0) == 0 ? Status::error : Status::passed;  // fam1, fam10..fam13
  });
  CHECK(texts(explain_differences(same)) ==
        std::vector<std::string>{"fam1, fam10, fam11, fam12, fam13: every scenario (10 scenarios): passed in #1, error in #2"});
}

TEST_CASE("the Markdown and the page explain before the tables, escaped", "[matrix][explain]") {
  MatrixReport report;
  report.matrix = matrix_of(ids("replay", kReplayAxes), 2, [](const std::string& id, std::size_t c) -> std::optional<Status> {
    return c == 1 && has(id, "forward=cuda_bindings_") ? Status::error : Status::passed;
  });
  std::string md = matrix_markdown(report);
  std::size_t why = md.find("### What differs: 96 scenario(s)");
  REQUIRE(why != std::string::npos);
  CHECK(why < md.find("### Not the same everywhere it ran"));
  CHECK(md.find("- replay\\: forward=cuda\\_bindings\\_\\* \\(96 scenarios\\)\\: passed in \\#1, error in \\#2\n") != std::string::npos);
  std::string html = matrix_html(report);
  CHECK(html.find("<li>replay: forward=cuda_bindings_* (96 scenarios): passed in #1, error in #2</li>") != std::string::npos);
  CHECK(html.find("What differs") < html.find("Every scenario"));

  MatrixReport uniform;
  uniform.matrix = matrix_of({"stub/a"}, 2, [](const std::string&, std::size_t) { return std::optional<Status>(Status::passed); });
  CHECK(matrix_markdown(uniform).find("Every scenario has the same result in every environment.") != std::string::npos);
}

TEST_CASE("among patterns that explain the same rows, the simplest wins", "[matrix][explain]") {
  // Not every combination ran: the one mode=a row is also api=driver and build=node.
  std::vector<std::string> scenarios = {"x/api=driver/build=node/mode=a", "x/api=driver/build=graph/mode=b",
                                        "x/api=runtime/build=node/mode=b", "x/api=runtime/build=graph/mode=b"};
  Matrix m = matrix_of(scenarios, 2, [](const std::string& id, std::size_t c) -> std::optional<Status> {
    return c == 1 && has(id, "mode=a") ? Status::failed : Status::passed;
  });
  CHECK(texts(explain_differences(m)) == std::vector<std::string>{"x: mode=a (1 scenario): passed in #1, failed in #2"});
}

TEST_CASE("families that differ the same way by the same pattern share a line", "[matrix][explain]") {
  // The replay bug as the layers show it: every captured graph errs in #1 and passes in
  // #2, in several families, and the rest passes in both.
  std::vector<std::string> scenarios;
  for (const char* family : {"lifetime", "ordering", "topology"})
    for (const auto& id : ids(family, {{"build", {"capture", "node"}}, {"replays", {"1", "2"}}})) scenarios.push_back(id);
  Matrix m = matrix_of(scenarios, 2, [](const std::string& id, std::size_t c) -> std::optional<Status> {
    return c == 0 && has(id, "build=capture") ? Status::error : Status::passed;
  });
  CHECK(texts(explain_differences(m)) ==
        std::vector<std::string>{"lifetime, ordering, topology: build=capture (6 scenarios): error in #1, passed in #2"});
}
