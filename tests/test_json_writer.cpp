#include <nlohmann/json.hpp>

#include "catch_compat.hpp"
#include "reports/json_writer.hpp"
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
