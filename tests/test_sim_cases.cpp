// The shipped families on the CPU stand-in of CUDA (sim_cases.hpp), in real workers: the
// right layers pass, and each known-bad layer is caught, by the check meant for it.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "app/selftest.hpp"
#include "catch_compat.hpp"
#include "stub_fixture.hpp"

using namespace hostcb;

namespace {

std::string said(const Result& r) {
  std::string text = r.reason;
  for (const auto& f : r.failures) text += "\n" + f.message;
  return text;
}

}  // namespace

TEST_CASE("the families' own bodies pass on the CPU stand-in through the right layers", "[sim]") {
  StubFixture cpu;
  auto plan = cpu.plan_matching("sim_*forward=direct*:sim_*forward=graph_owned*:sim_*forward=oneshot*", false);
  auto results = cpu.run(plan);
  REQUIRE(results.size() == plan.size());
  std::map<std::string, int> passed;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    INFO(plan[i].id << ": " << status_name(results[i].status) << ": " << said(results[i]));
    if (!plan[i].excluded_reason.empty()) {
      CHECK(results[i].status == Status::skipped);
      continue;
    }
    CHECK(results[i].status == Status::passed);
    ++passed[plan[i].family->name];
  }
  for (const char* family : {"sim_replay", "sim_update", "sim_lifetime", "sim_topology", "sim_stream_callback",
                             "sim_stream_host_func", "sim_fault_status", "sim_fuzz"}) {
    INFO(family);
    CHECK(passed[family] > 0);
  }
  // The new update cases and the layer's own capture with side streams ran, and passed.
  std::set<std::string> ids;
  for (std::size_t i = 0; i < plan.size(); ++i)
    if (results[i].status == Status::passed) ids.insert(plan[i].id);
  CHECK(ids.count("sim_update/api=sim/forward=graph_owned/case=exec_set_params_leaves_others/build=capture_by_layer/replays=2"));
  CHECK(ids.count("sim_update/api=sim/forward=direct/case=exec_update_leaves_others/build=node/replays=2"));
  CHECK(ids.count("sim_topology/api=sim/forward=graph_owned/shape=branches/build=capture_by_layer/replays=2"));
  // The fuzz programs that passed did what a GPU run does: stream callbacks, the layer's
  // own captures, blocks of threads, kernels and copies (the program is a property), and
  // their host functions' stamps were checked.
  std::set<std::string> fuzz_did;
  long stamp_checks = 0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (plan[i].family->name != "sim_fuzz" || results[i].status != Status::passed) continue;
    std::map<std::string, std::string> properties(results[i].properties.begin(), results[i].properties.end());
    for (const char* step : {"stream callback h", "capture by the layer", " fork ", "[t2]", "kernel k", "memcpy k"})
      if (properties["fuzz_program"].find(step) != std::string::npos) fuzz_did.insert(step);
    stamp_checks += std::stol(properties["fuzz_stamp_checks"]);
  }
  for (const char* step : {"stream callback h", "capture by the layer", " fork ", "[t2]", "kernel k", "memcpy k"}) {
    INFO("a passed sim_fuzz program with '" << step << "'");
    CHECK(fuzz_did.count(step));
  }
  CHECK(stamp_checks > 0);
  // What a stream callback was handed is the result's property: the data a contract is checked against.
  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (plan[i].id != "sim_fault_status/forward=direct") continue;
    std::map<std::string, std::string> properties(results[i].properties.begin(), results[i].properties.end());
    CHECK(properties["stream_callback_status"] == "719");
    CHECK(properties["stream_callback_stream"] == "enqueued");
  }
}

TEST_CASE("on the CPU stand-in each known-bad layer is caught by the check meant for it", "[sim][selftest]") {
  StubFixture cpu;
  // One control per family and layer: each layer's first (a crash costs a worker).
  std::vector<Scenario> plan;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& s : cpu.plan_matching("sim_*", true))
    if (seen.insert({s.family->name, s.params.get("forward")}).second) plan.push_back(s);
  auto results = cpu.run(plan);
  auto outcomes = judge_controls(plan, results);
  REQUIRE(outcomes.size() == plan.size());
  INFO(controls_table(outcomes));
  std::set<std::string> layers;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    INFO(plan[i].id << " must end " << plan[i].control->describe() << ": " << said(results[i]));
    CHECK(outcomes[i].caught);
    const std::string& tag = plan[i].control->mentions;
    if (!tag.empty()) {
      const auto& checks = outcomes[i].checks;
      CHECK(std::find(checks.begin(), checks.end(), tag) != checks.end());
    }
    layers.insert(plan[i].params.get("forward"));
  }
  for (const char* layer : {"oneshot", "hands_other_stream", "drops_status", "hands_other_user_data",
                            "rewrites_shared_record", "frees_shared_record", "updates_graph_too", "record_per_stream",
                            "frees_capture_at_end", "forgets_side_streams", "frees_on_update", "exec_set_in_graph",
                            "frees_at_end_capture", "ignores_capture_mode"}) {
    INFO(layer);
    CHECK(layers.count(layer));
  }
}
