// The shipped expectations/known-layer-bugs.jsonc against recorded results of four
// cuda-bindings versions (tests/inputs/layers/, made from what the docs say each version
// does): the night is green with the file, red with any one of its cuda-bindings entries
// removed, and a fixed release (13.5.0) is no xpass.
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/expectations.hpp"
#include "app/verdict.hpp"
#include "catch_compat.hpp"
#include "model/filter.hpp"
#include "reports/results_file.hpp"

using namespace hostcb;

namespace {

const std::string kShipped = std::string(HOSTCB_SOURCE_DIR) + "/expectations/known-layer-bugs.jsonc";

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// What `hostcb run --expectations` makes of a recorded run: its verdict.
Verdict judged(const std::string& results_path, const Expectations& expectations) {
  ResultsFile file = read_results_file(results_path);
  Environment env;
  for (const auto& adapter : file.doc["environment"]["adapters"]) {
    AdapterInfo info;
    info.name = adapter["name"].get<std::string>();
    for (const auto& [package, version] : adapter["versions"].items()) info.versions.emplace_back(package, version);
    env.adapters.push_back(info);
  }
  env.driver = file.doc["environment"]["driver"].get<std::string>();
  env.runtime_version = file.doc["environment"]["runtime_version"].get<int>();
  check_layer_packages(expectations, env);
  RunOutcome outcome;
  outcome.results = file.results;
  for (auto& r : outcome.results) apply_expectation(r, expectations, env);
  return run_verdict(outcome);
}

std::string recorded(const std::string& version) {
  return std::string(HOSTCB_INPUTS_DIR) + "/layers/cuda-bindings-" + version + ".json";
}

}  // namespace

TEST_CASE("the shipped layer bugs keep a night over four cuda-bindings versions green", "[expectations][layers]") {
  const Expectations shipped = load_expectations(kShipped);
  for (const char* version : {"12.9.10", "13.3.1", "13.4.4", "13.5.0"}) {
    INFO("cuda-bindings " << version);
    Verdict verdict = judged(recorded(version), shipped);
    CHECK(verdict.exit_code == 0);
    CHECK((verdict.why.find("xfail") != std::string::npos || std::string(version) == "13.5.0"));
  }
}

TEST_CASE("with one cuda-bindings entry of the shipped file removed, a broken version's night is red", "[expectations][layers]") {
  const Expectations shipped = load_expectations(kShipped);
  const ResultsFile broken = read_results_file(recorded("13.3.1"));
  std::size_t removed = 0;
  for (std::size_t i = 0; i < shipped.entries.size(); ++i) {
    bool names_cuda_bindings = false;
    for (const auto& [package, range] : shipped.entries[i].layers) names_cuda_bindings |= package == "cuda-bindings";
    if (!names_cuda_bindings) continue;
    // The same file less entry i, read as hostcb reads a file.
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text_of(kShipped), nullptr, true, true);
    doc["expectations"].erase(i);
    const Expectations fewer = parse_expectations(doc.dump(), "fewer.jsonc");
    const std::string pattern = shipped.entries[i].ids();
    INFO("without " << pattern);
    // The recording ran one axis value (replays=2) on one GPU: an entry that names none of its
    // errors (replays=5, multi_gpu) cannot turn it red; every other one must.
    bool names_an_error = false;
    for (const auto& r : broken.results)
      for (const auto& glob : shipped.entries[i].id_patterns) names_an_error |= r.status == Status::error && glob_match(glob, r.id);
    if (!names_an_error) continue;
    CHECK(judged(recorded("13.3.1"), fewer).exit_code == 1);
    CHECK(judged(recorded("13.5.0"), fewer).exit_code == 0);  // the fixed release needs none
    ++removed;
  }
  CHECK(removed == 5);  // replay, ordering, lifetime, topology, concurrency at replays=2
}

TEST_CASE("a fixed release of a known bug shows as xpass", "[expectations][layers]") {
  // 13.5.0's results under an entry that still claims it: every scenario it names xpasses.
  std::string text = text_of(kShipped);
  const std::string range = "\">=12.9,<13.5\"";
  for (std::size_t at; (at = text.find(range)) != std::string::npos;) text.replace(at, range.size(), "\">=12.9\"");
  Verdict verdict = judged(recorded("13.5.0"), parse_expectations(text, "widened.jsonc"));
  CHECK(verdict.exit_code == 1);
  CHECK(verdict.why.find("xpass") != std::string::npos);
}
