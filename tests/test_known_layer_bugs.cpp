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
#include "app/options.hpp"
#include "model/filter.hpp"
#include "cases/cases.hpp"
#include "model/registry.hpp"
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

TEST_CASE("with one cuda-bindings id of the shipped file removed, a broken version's night is red", "[expectations][layers]") {
  const Expectations shipped = load_expectations(kShipped);
  const ResultsFile broken = read_results_file(recorded("13.3.1"));
  std::size_t removed = 0;
  for (std::size_t i = 0; i < shipped.entries.size(); ++i) {
    bool names_cuda_bindings = false;
    for (const auto& [package, range] : shipped.entries[i].layers) names_cuda_bindings |= package == "cuda-bindings";
    if (!names_cuda_bindings) continue;
    for (std::size_t g = 0; g < shipped.entries[i].id_patterns.size(); ++g) {
      const std::string glob = shipped.entries[i].id_patterns[g];
      // The same file less that one glob of entry i (less the entry, when it is its only one).
      nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text_of(kShipped), nullptr, true, true);
      nlohmann::ordered_json& id = doc["expectations"][i]["id"];
      if (id.is_array() && id.size() > 1) {
        id.erase(g);
      } else {
        doc["expectations"].erase(i);
      }
      const Expectations fewer = parse_expectations(doc.dump(), "fewer.jsonc");
      INFO("without " << glob);
      // The recording ran one axis value (replays=2) on one GPU: a glob that names none of its
      // errors (multi_gpu) cannot turn it red; every other one must.
      bool names_an_error = false;
      for (const auto& r : broken.results) names_an_error |= r.status == Status::error && glob_match(glob, r.id);
      if (!names_an_error) continue;
      CHECK(judged(recorded("13.3.1"), fewer).exit_code == 1);
      CHECK(judged(recorded("13.5.0"), fewer).exit_code == 0);  // the fixed release needs none
      ++removed;
    }
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

namespace {
// Every scenario the shipped layers could give, as hostcb plans them at the default axes
// (controls included): the default plan, and for each layer the file names, the scenarios
// through forward=direct with that layer's name in its place (a layer joins the same
// combinations as direct, or fewer where it lacks an operation: a superset of its own).
std::vector<PlannedScenario> planned_with_layers() {
  Registry registry;
  cases::register_all_cases(registry);
  SelectionOptions everything;
  everything.controls = true;
  std::vector<PlannedScenario> planned;
  const std::vector<Scenario> plan = make_plan(registry, everything);
  for (const auto& s : plan) planned.emplace_back(s.id, s.params);
  for (const char* layer : {"cuda_bindings_runtime", "cuda_bindings_driver", "cuda_core_graph_builder", "cupy_add_callback",
                            "cupy_external_stream", "cupy_runtime", "numba_add_callback", "numba_cuda_mlir_add_callback",
                            "cccl_host_launch_value", "cccl_host_launch_args", "cccl_host_launch_fnptr", "cccl_host_launch_ref"}) {
    for (const auto& s : plan) {
      if (!s.params.has("forward") || s.params.get("forward") != "direct") continue;
      std::string id = s.id;
      const std::size_t at = id.find("forward=direct");
      REQUIRE(at != std::string::npos);
      id.replace(at, std::string("forward=direct").size(), std::string("forward=") + layer);
      planned.emplace_back(id, s.params.with("forward", layer));
    }
  }
  return planned;
}

Environment with_layers(std::initializer_list<std::pair<const char*, const char*>> versions) {
  Environment env;
  env.driver = "580.159.04";
  env.runtime_version = 13000;
  for (const auto& [package, version] : versions) env.adapters.push_back({"layer", "x.so", "", {{package, version}}});
  return env;
}
}  // namespace

TEST_CASE("the shipped file names the same scenarios with the same expectations as the 30 entries it replaced", "[expectations][layers]") {
  // Issue 36: the file was rewritten with id lists and "replays": ">=2" (tests/inputs/layers/
  // known-layer-bugs-30-entries.jsonc is the file before); its meaning must be the same.
  const Expectations before = load_expectations(std::string(HOSTCB_INPUTS_DIR) + "/layers/known-layer-bugs-30-entries.jsonc");
  const Expectations after = load_expectations(kShipped);
  REQUIRE(before.entries.size() == 30);
  CHECK(after.entries.size() < 10);
  const std::vector<PlannedScenario> planned = planned_with_layers();
  REQUIRE(planned.size() > 8000);
  const std::vector<Environment> environments = {
      with_layers({}),
      with_layers({{"cuda-bindings", "13.3.1"}, {"cupy-cuda13x", "14.2.0"}, {"numba-cuda", "0.30.4"}, {"cccl", "3.5.0"}}),
      with_layers({{"cuda-bindings", "13.4.5.dev3+g1234abc"}, {"cupy-cuda13x", "14.2.1.dev0+g0abc"}, {"cccl", "3.5.0+cuda13"}}),
      with_layers({{"cuda-bindings", "12.9.10"}, {"numba-cuda", "0.30.0"}}),
      with_layers({{"cuda-bindings", "13.5.0"}, {"cupy-cuda13x", "14.3.0"}, {"numba-cuda", "0.31"}, {"cccl", "3.6.0"}}),
  };
  std::size_t marked = 0, differ = 0;
  for (std::size_t e = 0; e < environments.size(); ++e) {
    for (const auto& s : planned) {
      const Expectation* old_entry = find_expectation(before, s.id, s.params, environments[e]);
      const Expectation* new_entry = find_expectation(after, s.id, s.params, environments[e]);
      const bool same = (old_entry == nullptr) == (new_entry == nullptr) &&
                        (!old_entry || (old_entry->expect == new_entry->expect && old_entry->describe() == new_entry->describe()));
      if (!same && ++differ <= 5)
        FAIL_CHECK("environment " << e << ", " << s.id << ": before " << (old_entry ? old_entry->describe() : "none")
                                  << ", after " << (new_entry ? new_entry->describe() : "none"));
      marked += old_entry != nullptr;
    }
  }
  CHECK(differ == 0);
  CHECK(marked > 1000);  // the environments with broken versions mark many scenarios
}
