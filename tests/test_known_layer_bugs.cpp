// The shipped expectations/known-layer-bugs.jsonc against recorded results of four
// cuda-bindings versions (tests/inputs/layers/, made from what the docs say each version
// does): the night is green with the file, red with any one of its cuda-bindings entries
// removed, and a fixed release (13.5.0) is no xpass.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/expectations.hpp"
#include "app/verdict.hpp"
#include "catch_compat.hpp"
#include "recorded_runs.hpp"
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

// The environment a recorded run's expectations are applied in: its layers' versions, its
// driver and runtime.
Environment environment_of(const ResultsFile& file) {
  Environment env;
  for (const auto& adapter : file.doc["environment"]["adapters"]) {
    AdapterInfo info;
    info.name = adapter["name"].get<std::string>();
    for (const auto& [package, version] : adapter["versions"].items()) info.versions.emplace_back(package, version);
    env.adapters.push_back(info);
  }
  env.driver = file.doc["environment"]["driver"].get<std::string>();
  env.runtime_version = file.doc["environment"]["runtime_version"].get<int>();
  return env;
}

// What `hostcb run --expectations` makes of a recorded run: its verdict.
Verdict judged(const std::string& results_path, const Expectations& expectations) {
  ResultsFile file = read_results_file(results_path);
  Environment env = environment_of(file);
  check_layer_packages(expectations, env);
  RunOutcome outcome;
  outcome.results = file.results;
  for (auto& r : outcome.results) apply_expectation(r, expectations, env);
  return run_verdict(outcome);
}


}  // namespace

TEST_CASE("the shipped layer bugs keep a night over four cuda-bindings versions green", "[expectations][layers]") {
  const Expectations shipped = load_expectations(kShipped);
  for (const char* version : {"12.9.10", "13.3.1", "13.4.4", "13.5.0"}) {
    INFO("cuda-bindings " << version);
    Verdict verdict = judged(recorded_cuda_bindings_run(version), shipped);
    CHECK(verdict.exit_code == 0);
    CHECK((verdict.why.find("xfail") != std::string::npos || std::string(version) == "13.5.0"));
  }
}

// What the H200 gave on 2026-12-04 (main at 2dd51ae with that day's harness), kept by
// scripts/store-gpu-run.py: layers.sh's runs of four cuda-bindings versions through both of
// its modules and of the image's CuPy, numba-cuda and cuda.core (replays=2; replay,
// lifetime, device_fault and stream_callback), and the wheel's run through cuda-bindings
// 13.3.1 (lifetime at every replays, too). Each result with the status it had before any
// expectations file.
TEST_CASE("the shipped layer bugs keep the H200's recorded runs green, and fixed releases clean", "[expectations][layers]") {
  const Expectations shipped = load_expectations(kShipped);
  const std::string folder = std::string(HOSTCB_INPUTS_DIR) + "/h200-2026-12-04/";
  for (const char* name :
       {"cuda_bindings_driver-12.9.10", "cuda_bindings_driver-13.3.1", "cuda_bindings_driver-13.4.4",
        "cuda_bindings_driver-13.5.0", "cuda_bindings_runtime-12.9.10", "cuda_bindings_runtime-13.3.1",
        "cuda_bindings_runtime-13.4.4", "cuda_bindings_runtime-13.5.0", "cuda_core_graph_builder-1.2.0",
        "cupy_add_callback-14.2.0", "cupy_external_stream-14.2.0", "cupy_runtime-14.2.0", "numba_add_callback-0.30.4",
        "python-cuda_bindings_runtime-13.3.1"}) {
    INFO(name);
    const std::string path = folder + name + ".json";
    const Verdict verdict = judged(path, shipped);
    CHECK(verdict.exit_code == 0);  // every failure listed, no xpass
    INFO(verdict.why);
    const std::string n = name;
    const bool fixed = n.find("13.5.0") != std::string::npos;
    const bool has_bugs = !fixed && n.find("cupy_add_callback") == std::string::npos &&
                          n.find("cuda_core") == std::string::npos;
    CHECK((verdict.why.find("xfail") != std::string::npos) == has_bugs);
    if (fixed) {  // 13.5.0: everything that ran passed, nothing listed
      for (const Result& r : read_results_file(path).results) CHECK((r.status == Status::passed || r.status == Status::skipped));
    }
  }
}

TEST_CASE("with one cuda-bindings id of the shipped file removed, a broken version's night is red", "[expectations][layers]") {
  const Expectations shipped = load_expectations(kShipped);
  const ResultsFile broken = read_results_file(recorded_cuda_bindings_run("13.3.1"));
  const Environment broken_env = environment_of(broken);
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
      // The recording ran one axis value (replays=2) on one GPU: a glob that is not the one
      // that lists any of its errors (multi_gpu; two_execs at replays=2, which the first entry
      // lists) cannot turn it red; every other one must.
      bool names_an_error = false;
      for (const auto& r : broken.results)
        names_an_error |= r.status == Status::error && glob_match(glob, r.id) &&
                          find_expectation(shipped, r.id, r.params, broken_env) == &shipped.entries[i];
      if (!names_an_error) continue;
      CHECK(judged(recorded_cuda_bindings_run("13.3.1"), fewer).exit_code == 1);
      CHECK(judged(recorded_cuda_bindings_run("13.5.0"), fewer).exit_code == 0);  // the fixed release needs none
      ++removed;
    }
  }
  CHECK(removed == 7);  // replay, ordering, lifetime, topology, concurrency, update at replays=2; calls_cuda
}

TEST_CASE("a fixed release of a known bug shows as xpass", "[expectations][layers]") {
  // 13.5.0's results under an entry that still claims it: every scenario it names xpasses.
  std::string text = text_of(kShipped);
  const std::string range = "\">=12.9,<13.5\"";
  for (std::size_t at; (at = text.find(range)) != std::string::npos;) text.replace(at, range.size(), "\">=12.9\"");
  Verdict verdict = judged(recorded_cuda_bindings_run("13.5.0"), parse_expectations(text, "widened.jsonc"));
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
  // known-layer-bugs-30-entries.jsonc is the file before); its meaning must be the same, but
  // for the entries added since for what the H200 showed those 30 never covered (issue 42,
  // item 14), which may only name scenarios the 30 left unnamed.
  const std::vector<std::string> added = {"lifetime/*forward=cuda_bindings_*/case=two_execs/build=capture*",
                                          "update/*forward=cuda_bindings_*/*build=capture*",
                                          "callback_fault/*forward=cuda_bindings_*/fault=calls_cuda"};
  std::size_t newly_named = 0;
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
      if (!old_entry && new_entry &&
          std::find(added.begin(), added.end(), new_entry->id_patterns.front()) != added.end()) {
        ++newly_named;
        continue;
      }
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
  CHECK(newly_named > 0);
}
