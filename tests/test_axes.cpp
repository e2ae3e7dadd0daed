#include <map>
#include <optional>
#include <set>

#include "model/axes.hpp"
#include "cases/cases.hpp"
#include "catch_compat.hpp"
#include "model/errors.hpp"
#include "model/registry.hpp"

using namespace hostcb;

namespace {
Family toy_family(std::string name, std::vector<Axis> axes) {
  Family f;
  f.name = std::move(name);
  f.axes = std::move(axes);
  f.body = [](ScenarioRun&) {};
  return f;
}
std::vector<std::string> ids_of(const std::vector<Scenario>& plan) {
  std::vector<std::string> ids;
  for (const auto& s : plan) ids.push_back(s.id);
  return ids;
}
}  // namespace

TEST_CASE("expansion is the cartesian product in declared order, last axis fastest", "[axes]") {
  auto params = expand({Axis::choice("api", {"driver", "runtime"}), Axis::count("replays", {1, 5})});
  REQUIRE(params.size() == 4);
  CHECK(scenario_id("f", {}, params[0]) == "f/api=driver/replays=1");
  CHECK(scenario_id("f", {}, params[1]) == "f/api=driver/replays=5");
  CHECK(scenario_id("f", {}, params[2]) == "f/api=runtime/replays=1");
  CHECK(scenario_id("f", {}, params[3]) == "f/api=runtime/replays=5");
}

TEST_CASE("a family without axes is one scenario and an empty axis is none", "[axes]") {
  CHECK(expand({}).size() == 1);
  Axis empty = Axis::choice("x", {});
  CHECK(expand({Axis::choice("a", {"1"}), empty}).empty());
}

TEST_CASE("count axes take canonical whole numbers in range", "[axes]") {
  Axis replays = Axis::count("replays", {1, 2}, 1000);
  CHECK_NOTHROW(replays.check_value("7"));
  CHECK_NOTHROW(replays.check_value("1000"));
  for (const char* bad : {"0", "-1", "1001", "abc", "7x", "007", "+5", "1e3", ""})
    CHECK_THROWS_AS(replays.check_value(bad), UsageError);
}

TEST_CASE("choice axes take only their declared values", "[axes]") {
  Axis api = Axis::choice("api", {"driver", "runtime"});
  CHECK_NOTHROW(api.check_value("driver"));
  CHECK_THROWS_AS(api.check_value("cuda"), UsageError);
}

TEST_CASE("the registry refuses names that would make ids ambiguous", "[registry]") {
  Registry registry;
  CHECK_THROWS(registry.add(toy_family("bad-name", {})));
  CHECK_THROWS(registry.add(toy_family("f", {Axis::choice("a", {"x-y"})})));
  CHECK_THROWS(registry.add(toy_family("f", {Axis::choice("a", {"x"}), Axis::choice("a", {"y"})})));
  registry.add(toy_family("f", {}));
  CHECK_THROWS(registry.add(toy_family("f", {})));
}

TEST_CASE("impossible combinations are listed as excluded, not renamed away", "[registry]") {
  Registry registry;
  Family f = toy_family("f", {Axis::choice("api", {"driver", "runtime"}), Axis::choice("x", {"a", "b"})});
  f.excluded = [](const Params& p) -> std::optional<std::string> {
    if (p.get("api") == "driver" && p.get("x") == "b") return std::string("driver has no b");
    return std::nullopt;
  };
  registry.add(f);
  auto plan = registry.plan({});
  REQUIRE(plan.size() == 4);
  CHECK(plan[1].id == "f/api=driver/x=b");
  CHECK(plan[1].excluded_reason == "driver has no b");
  CHECK(plan[0].excluded_reason.empty());
}

TEST_CASE("axis overrides replace values where the axis exists", "[registry]") {
  Registry registry;
  registry.add(toy_family("f", {Axis::count("replays", {1, 2})}));
  registry.add(toy_family("g", {Axis::choice("api", {"driver"})}));
  Selection selection;
  selection.overrides = {parse_axis_override("replays=1,7")};
  CHECK(ids_of(registry.plan(selection)) == std::vector<std::string>{"f/replays=1", "f/replays=7", "g/api=driver"});

  selection.overrides = {parse_axis_override("nodes=3")};
  CHECK_THROWS_AS(registry.plan(selection), UsageError);
  selection.overrides = {parse_axis_override("replays=0")};
  CHECK_THROWS_AS(registry.plan(selection), UsageError);
}

TEST_CASE("an override of a selecting axis leaves out the families without it, others only reshape", "[registry]") {
  Registry registry;
  registry.add(toy_family("layered", {Axis::choice("forward", {"direct", "mine"}).selecting(), Axis::count("replays", {1})}));
  registry.add(toy_family("plain", {Axis::count("replays", {1})}));
  Selection selection;
  selection.overrides = {parse_axis_override("forward=mine")};
  CHECK(ids_of(registry.plan(selection)) == std::vector<std::string>{"layered/forward=mine/replays=1"});
  // A shaping axis keeps every family: those without it stay as they are.
  selection.overrides = {parse_axis_override("replays=2")};
  CHECK(ids_of(registry.plan(selection)) ==
        std::vector<std::string>{"layered/forward=direct/replays=2", "layered/forward=mine/replays=2", "plain/replays=2"});
  // A filter on a left-out family then matches nothing: a usage error, not a silent run.
  selection.overrides = {parse_axis_override("forward=mine")};
  selection.filter = "plain";
  CHECK_THROWS_AS(registry.plan(selection), UsageError);
}

TEST_CASE("selecting a layer counts only the shipped scenarios that go through it", "[registry][cases]") {
  Registry registry;
  cases::register_all_cases(registry);
  Selection by_axis;
  by_axis.overrides = {parse_axis_override("forward=graph_owned")};
  const auto through_axis = registry.plan(by_axis);
  for (const auto& s : through_axis) {
    INFO(s.id);
    REQUIRE(s.params.has("forward"));
    CHECK(s.params.get("forward") == "graph_owned");
  }
  // The same scenarios as the filter that names the layer (the forward axis is in every id).
  Selection by_filter;
  by_filter.filter = "*forward=graph_owned*";
  CHECK(ids_of(registry.plan(by_filter)) == ids_of(through_axis));
  // Shaping axes keep the families without them: contracts has no replays axis.
  Selection shaped;
  shaped.overrides = {parse_axis_override("replays=2")};
  bool contracts_kept = false;
  for (const auto& s : registry.plan(shaped)) contracts_kept = contracts_kept || s.family->name == "contracts";
  CHECK(contracts_kept);
}

TEST_CASE("the same axis overridden twice is a usage error, not the last one winning", "[registry]") {
  Registry registry;
  registry.add(toy_family("f", {Axis::count("replays", {1, 2})}));
  Selection selection;
  selection.overrides = {parse_axis_override("replays=1"), parse_axis_override("replays=2")};
  std::string what;
  try {
    registry.plan(selection);
  } catch (const UsageError& e) {
    what = e.what();
  }
  CHECK(what == "axis 'replays' is overridden twice; give all its values in one --axis replays=V1,V2");
}

TEST_CASE("filters that match nothing are usage errors with a hint for controls", "[registry]") {
  Registry registry;
  registry.add(toy_family("f", {}));
  Family control = toy_family("bad", {});
  control.control = [](const Params&) { return std::optional<ExpectedVerdict>(ExpectedVerdict{{Status::failed}, ""}); };
  registry.add(control);

  Selection selection;
  selection.filter = "nosuch*";
  CHECK_THROWS_AS(registry.plan(selection), UsageError);
  selection.filter = "f:nosuch";  // one good pattern does not excuse a typo in another
  CHECK_THROWS_AS(registry.plan(selection), UsageError);
  selection.filter = "f-f";
  CHECK_THROWS_AS(registry.plan(selection), UsageError);  // selects nothing

  selection.filter = "bad";
  try {
    registry.plan(selection);
    FAIL("expected a usage error");
  } catch (const UsageError& e) {
    CHECK(contains(e.what(), "--controls"));
  }
  selection.include_controls = true;
  CHECK(ids_of(registry.plan(selection)) == std::vector<std::string>{"bad"});
  CHECK(ids_of(registry.plan({})) == std::vector<std::string>{"f"});  // never in the default plan
}

TEST_CASE("the shipped families have the expected sizes and unique ids and no controls by default", "[registry][cases]") {
  Registry registry;
  cases::register_all_cases(registry);
  auto plan = registry.plan({});
  std::set<std::string> ids;
  std::map<std::string, int> per_family;
  for (const auto& s : plan) {
    ids.insert(s.id);
    ++per_family[s.family->name];
    CHECK_FALSE(s.control.has_value());
  }
  CHECK(ids.size() == plan.size());
  // Three built-in layers on every family that enqueues host work, less the oneshot
  // combinations where a record is called twice (controls, never in the default plan).
  // The known-bad layers add controls only: through them every other combination is no
  // scenario. Every family that captures builds by capture, node and capture_by_layer.
  CHECK(per_family["replay"] == 2 * 3 * 5 * 4 * 2 - 2 * 5 * 3 * 2);
  CHECK(per_family["ordering"] == 2 * 3 * 3 * 4 * 2 - 2 * 3 * 3 * 2);
  // two_execs, user_object, many_graphs_kept: every replays; the other five: replays 2 and 5
  CHECK(per_family["lifetime"] == 2 * 3 * 8 * 3 * 3 - 2 * 3 * (3 * 3 + 5 * 2));
  // 8 cases; in the two leaves_others an exec made before calls the graph's record again, and
  // in the two *_second the first node's record is launched before and after: every replays
  CHECK(per_family["update"] == 2 * 3 * 8 * 3 * 3 - 2 * 3 * (4 * 2 + 4 * 3));
  // capture_to_graph/node and capture_to_graph/capture_by_layer: excluded
  CHECK(per_family["topology"] == 2 * 3 * 4 * 3 * 3 - (2 * 4 * 3 * 2 - 2 * 2 * 2));
  CHECK(per_family["concurrency"] == 2 * 3 * 3 * 2 * 4 - 2 * 3 * 2 * 3);
  CHECK(per_family["multi_gpu"] == 2 * 3 * 3 * 3 - 2 * 3 * 2);
  // calls_cuda through direct and graph_owned, and the wrapper defects through the other
  // two layers: excluded (so listed), never controls.
  CHECK(per_family["callback_fault"] == 2 * 2 + 2 * 3 * 2);
  CHECK(per_family["stream_callback"] == 2 * 3 * 2 * 3);  // oneshot is right for stream work
  CHECK(per_family["stream_host_func"] == 2 * 3 * 2 * 3);
  CHECK(per_family["capture_contract"] == 2 * 3);
  CHECK(per_family["device_fault"] == 2 * 3 * 2 * 5);
  // fuzz: 8 seeds of each op set through direct and graph_owned; through the known-bad
  // layers the seeds whose program never reaches the bug (the model says) are listed as
  // excluded: ops=graph oneshot none, frees_on_update 6, exec_set_in_graph 7, and all 8 for
  // the two whose bug needs the layer's capture or threads; ops=all 1, 7, 7, 3 and 5.
  CHECK(per_family["fuzz"] == 2 * 2 * 8 + (6 + 7 + 8 + 8) + (1 + 7 + 7 + 3 + 5));
  CHECK(ids.count("replay/api=driver/forward=direct/build=capture_global/replays=5/sync=each") == 1);
  CHECK(ids.count("replay/api=driver/forward=oneshot/build=capture_global/replays=1/sync=each") == 1);
  CHECK(ids.count("replay/api=driver/forward=oneshot/build=capture_global/replays=2/sync=each") == 0);
  // Ids that existed before capture_by_layer and the new cases came keep their meaning.
  CHECK(ids.count("ordering/api=runtime/forward=direct/build=capture/replays=5/sync=end") == 1);
  CHECK(ids.count("update/api=driver/forward=graph_owned/case=exec_set_params/build=node/replays=5") == 1);
  CHECK(ids.count("device_fault/api=driver/forward=direct/fault=trap/then=stream_callback") == 1);
  for (const auto& id : ids) CHECK(id.find("forward=frees_capture_at_end") == std::string::npos);  // controls only

  Selection only;
  only.only_controls = true;
  auto controls = registry.plan(only);
  // The oneshot layer's controls above (less topology's excluded capture_to_graph ones),
  // and callback_fault's: through oneshot the 5 faults that are no wrapper of their own,
  // through direct all 7 but calls_cuda, through graph_owned the 4 of those 7 left.
  // fuzz ops=graph: every oneshot seed, and seeds 4 and 7 (frees_on_update) and 4
  // (exec_set_in_graph); ops=all: 7 oneshot seeds, 1, 1, 5 (frees_at_end_capture), 3 (racing_registry).
  const std::size_t oneshot = 60 + 36 + 114 + 120 + 40 + 36 + 12 + 2 * (5 + 7 + 4) + 8 + 2 + 1;
  const std::size_t fuzz_all = 7 + 1 + 1 + 5 + 3;
  // The known-bad layers, each where its check is (cases/layer_rules.hpp, add_known_bad):
  // frees_capture_at_end wherever build=capture_by_layer (replay, ordering, lifetime,
  // update, topology less capture_to_graph, concurrency, multi_gpu); forgets_side_streams in
  // topology's branches with 2 and 5 launches; the four update layers in the leaves_others
  // cases; the stream callback layers in stream_callback and in device_fault's three
  // stream-callback cases; ignores_capture_mode in concurrency's captures by the layer;
  // first_graph_owns in lifetime's many_graphs cases, records_per_thread in its thread_gone;
  // updates_first_host_node in update's
  // *_second cases; waits_for_stream where the gate is held.
  std::map<std::string, std::size_t> by_layer;
  for (const auto& s : controls) ++by_layer[s.params.has("forward") ? s.params.get("forward") : ""];
  CHECK(by_layer["frees_capture_at_end"] == 16 + 16 + 48 + 48 + 18 + 16 + 6);
  CHECK(by_layer["first_graph_owns"] == 2 * 2 * 3 * 3);  // lifetime's two many_graphs cases
  CHECK(by_layer["records_per_thread"] == 2 * 3 * 3);    // lifetime's thread_gone
  CHECK(by_layer["waits_for_stream"] == 2 * 3 + 2 * 3);  // gate=held in stream_callback and stream_host_func
  CHECK(by_layer["forgets_side_streams"] == 2 * 2);
  CHECK(by_layer["rewrites_shared_record"] == 2 * 3 * 3);
  CHECK(by_layer["frees_shared_record"] == 2 * 3 * 3);
  CHECK(by_layer["updates_graph_too"] == 2 * 3 * 3);
  CHECK(by_layer["record_per_stream"] == 2 * 2 * 3);  // by capture and by the layer's capture
  CHECK(by_layer["hands_other_stream"] == 2 * 2 * 3 + 2 * 2 * 3);
  CHECK(by_layer["drops_status"] == 2 * 2 * 3);
  CHECK(by_layer["hands_other_user_data"] == 2 * 2 * 3 + 2 * 2 * 3);
  CHECK(by_layer["ignores_capture_mode"] == 2 * 2 * 4);
  CHECK(by_layer["updates_first_host_node"] == 2 * 3 * 3 + 2 * 3);  // graph_set: every build; exec_set: node
  CHECK(controls.size() == oneshot + fuzz_all + 168 + 36 + 18 + 24 + 12 + 4 + 18 * 3 + 12 + 24 + 12 + 24 + 16);
  for (const auto& s : controls) CHECK(s.control.has_value());
}

TEST_CASE("resolve turns any valid id back into its scenario", "[registry]") {
  Registry registry;
  cases::register_all_cases(registry);
  Scenario s = registry.resolve("replay/api=runtime/forward=oneshot/build=node/replays=7/sync=end");
  CHECK(s.family->name == "replay");
  CHECK(s.params.get_count("replays") == 7);  // not a default value: overrides travel in the id
  CHECK(s.control.has_value());
  CHECK(registry.resolve("device_fault/api=driver/forward=direct/fault=trap/then=host_func").family->fresh_process);
  // A known-bad layer is a scenario only where a check is meant to catch it.
  CHECK(registry.resolve("replay/api=runtime/forward=frees_capture_at_end/build=capture_by_layer/replays=1/sync=end").control);
  try {
    registry.resolve("replay/api=runtime/forward=frees_capture_at_end/build=node/replays=1/sync=end");
    FAIL("a known-bad layer's combination with no check for it resolved");
  } catch (const UsageError& e) {
    CHECK(contains(e.what(), "is no scenario: frees_capture_at_end is a known-bad layer, run only where a check is meant to catch it"));
  }
  for (const char* bad : {"nosuch/x=1", "replay/api=runtime", "replay/forward=direct/api=runtime/build=node/replays=1/sync=end",
                          "replay/api=cuda/forward=direct/build=node/replays=1/sync=end",
                          "replay/api=runtime/forward=direct/build=node/replays=0/sync=end"})
    CHECK_THROWS_AS(registry.resolve(bad), UsageError);
}

TEST_CASE("an axis added later leaves its old value out of ids: published ids keep their scenario", "[registry]") {
  Registry registry;
  registry.add(toy_family("f", {Axis::count("seed", {1, 2}), Axis::choice("ops", {"old", "new"}).leave_out_of_ids("old"),
                                Axis::word("cut", {"none"})}));
  CHECK(ids_of(registry.plan({})) == std::vector<std::string>{"f/seed=1/cut=none", "f/seed=1/ops=new/cut=none",
                                                              "f/seed=2/cut=none", "f/seed=2/ops=new/cut=none"});
  Scenario published = registry.resolve("f/seed=2/cut=none");
  CHECK(published.params.get("ops") == "old");  // the body still reads the value
  CHECK(published.id == "f/seed=2/cut=none");
  CHECK(registry.resolve("f/seed=2/ops=new/cut=none").params.get("ops") == "new");
  Selection only_old;
  only_old.overrides = {{"ops", {"old"}}};
  CHECK(ids_of(registry.plan(only_old)) == std::vector<std::string>{"f/seed=1/cut=none", "f/seed=2/cut=none"});
  // one spelling per scenario, and the axes still in their places
  for (const char* bad : {"f/seed=2/ops=old/cut=none", "f/seed=2/cut=none/ops=new", "f/ops=new/seed=2/cut=none",
                          "f/seed=2/ops=nosuch/cut=none", "f/seed=2", "f/seed=2/ops=new/cut=none/x=1"})
    CHECK_THROWS_AS(registry.resolve(bad), UsageError);
  // a value it leaves out must be one it offers by default
  Registry wrong;
  CHECK_THROWS(wrong.add(toy_family("g", {Axis::choice("ops", {"new"}).leave_out_of_ids("old")})));
}
