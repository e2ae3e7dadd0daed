#include <nlohmann/json.hpp>

#include "catch_compat.hpp"
#include "reports/json_writer.hpp"
#include "reports/junit_writer.hpp"
#include "report_fixture.hpp"

using namespace hostcb;

TEST_CASE("JSON results are versioned and complete and parse whatever the messages hold", "[json]") {
  auto doc = nlohmann::json::parse(results_json(sample_report()));
  CHECK(doc["format"] == "hostcb-results");
  CHECK(doc["format_version"] == kResultsFormatVersion);
  CHECK(doc["summary"]["total"] == 6);
  CHECK(doc["summary"]["passed"] == 1);
  CHECK(doc["summary"]["failed"] == 1);
  CHECK(doc["summary"]["error"] == 1);
  CHECK(doc["summary"]["skipped"] == 1);
  CHECK(doc["summary"]["xfail"] == 1);
  CHECK(doc["summary"]["xpass"] == 1);
  CHECK(doc["results"][4]["status"] == "xfail");
  CHECK(doc["results"][4]["expectation"] == "driver bug 4711 (https://example.invalid/4711)");
  CHECK(doc["results"][5]["status"] == "xpass");
  RunReport two_xpass = sample_report();  // each count from its own status, not a neighbour's
  two_xpass.results.push_back(two_xpass.results.back());
  auto summary = nlohmann::json::parse(results_json(two_xpass))["summary"];
  CHECK(summary["xfail"] == 1);
  CHECK(summary["xpass"] == 2);
  CHECK(summary["total"] == 7);
  CHECK(doc["environment"]["devices"][0]["compute_capability"] == "9.0");
  CHECK(doc["environment"]["command_line"] == "hostcb run --filter 'replay/*'");

  const auto& failed = doc["results"][1];
  CHECK(failed["status"] == "failed");
  CHECK(failed["failures"].size() == 3);
  CHECK(failed["failures"][0]["launch"] == 2);
  CHECK(failed["failures"][0]["file"] == "cases/replay.cu");
  CHECK(failed["failures"][0]["line"] == 42);
  CHECK(failed["failures_dropped"] == 7);
  CHECK(doc["results"][0]["properties"]["callback_calls"] == "10");
  CHECK(doc["results"][3]["reason"].get<std::string>().rfind("no usable CUDA device", 0) == 0);
}

TEST_CASE("each adapter's versions go into the JSON as an object and into the JUnit properties", "[json]") {
  RunReport report = sample_report();
  report.environment.adapters = {
      {"cuda_bindings_runtime", "/lib/libhostcb_python_runtime.so", "Python 3.12.3; cuda-bindings 13.3.1",
       {{"cuda-bindings", "13.3.1"}, {"cuda-python", "13.3.1"}}},
      {"example", "/lib/libhostcb_example_adapter.so", "example adapter", {}}};
  auto doc = nlohmann::ordered_json::parse(results_json(report));
  CHECK(doc["format_version"] == 3);
  const auto& versions = doc["environment"]["adapters"][0]["versions"];
  CHECK(versions.dump() == R"({"cuda-bindings":"13.3.1","cuda-python":"13.3.1"})");  // the adapter's order
  CHECK(doc["environment"]["adapters"][1]["versions"].dump() == "{}");  // knows none: still an object
  auto props = environment_properties(report.environment);
  auto has = [&](const std::string& name, const std::string& value) {
    for (const auto& p : props)
      if (p.first == name) return p.second == value;
    return false;
  };
  CHECK(has("adapter.cuda_bindings_runtime.version.cuda-bindings", "13.3.1"));
  CHECK(has("adapter.cuda_bindings_runtime.version.cuda-python", "13.3.1"));
  CHECK(has("adapter.example.describe", "example adapter"));
  CHECK(junit_xml(report).find(R"(<property name="adapter.cuda_bindings_runtime.version.cuda-bindings" value="13.3.1")") !=
        std::string::npos);
}

TEST_CASE("the JSON summary counts, per loaded layer, only the results that went through it", "[json]") {
  RunReport report = sample_report();
  CHECK(nlohmann::json::parse(results_json(report))["summary"]["layers"] == nlohmann::json::object());
  report.environment.adapters = {{"mine", "/x/libmine.so", "mine 1.0", {{"mine", "1.0"}}},
                                 {"unreached", "/x/libunreached.so", "", {}}};
  Result through = report.results[0];
  through.params.add("forward", "mine");
  Result elsewhere = report.results[1];
  elsewhere.params.add("forward", "direct");
  report.results = {through, elsewhere, through};
  report.results[2].status = Status::error;
  auto layers = nlohmann::json::parse(results_json(report))["summary"]["layers"];
  CHECK(layers["mine"]["total"] == 2);
  CHECK(layers["mine"]["passed"] == 1);
  CHECK(layers["mine"]["error"] == 1);
  CHECK(layers["unreached"]["total"] == 0);  // selected and never reached: said, not left out
  CHECK(layers.size() == 2);
}
