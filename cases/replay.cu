// replay: the regression hostcb exists for. A graph holding host functions must call
// each of them once on every launch, not only the first.
//
// Two host functions, chained, each with its own userData, are put in a graph by stream
// capture (global, thread-local, relaxed mode; or begun and ended by the layer itself) or
// as explicit host nodes, through the driver or the runtime API and a forwarding layer. The graph is launched N times; with
// sync=each the stream is synchronized after every launch and the count must have grown
// by exactly 2. forward=oneshot with 2 or more launches is the shipped bug: a known-bad
// control that must end failed or error (usually SIGSEGV on launch 2).
#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "model/errors.hpp"
#include "cases/host_chain.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

constexpr std::size_t kHostFunctions = 2;

void replay_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  Forwarder& forward = run.forward();
  const std::int64_t replays = run.count("replays");
  const bool sync_each = run.param("sync") == "each";
  const std::int64_t records_before = forward.live_records();

  Probe& probe = run.make_probe(kHostFunctions, static_cast<std::uint64_t>(replays));
  probe.expect_in_order();
  Stream stream = api.make_stream();
  Graph graph = build_host_chain(run, stream.get(), run.param("build"), 0, kHostFunctions);

  GraphShape shape = api.graph_shape(graph.get());
  HOSTCB_EXPECT(shape.nodes == kHostFunctions && shape.host_nodes == kHostFunctions,
                str("[graph] the graph holds ", shape.nodes, " nodes, ", shape.host_nodes, " of them host nodes"));

  GraphExec exec = api.instantiate(graph.get());
  for (std::int64_t launch = 1; launch <= replays; ++launch) {
    run.set_launch(launch, replays);
    api.launch(exec.get(), stream.get());
    if (!sync_each) continue;
    api.synchronize(stream.get());
    const std::uint64_t want = kHostFunctions * static_cast<std::uint64_t>(launch);
    HOSTCB_EXPECT(probe.total_calls() == want,
                  str("[count] after launch ", launch, " of ", replays, " the host functions had been called ",
                      probe.total_calls(), " times"));
  }
  api.synchronize(stream.get());

  exec.reset();
  graph.reset();
  expect_records_freed(forward, records_before, "after the graph and its exec were destroyed");
}

}  // namespace

Family replay_family() {
  Family family;
  family.name = "replay";
  family.summary = "a graph of 2 host functions is launched N times: each is called exactly once per launch";
  family.axes = {
      api_axis(),
      forward_axis(),
      Axis::choice("build", {"capture_global", "capture_thread_local", "capture_relaxed", "capture_by_layer", "node"}),
      Axis::count("replays", {1, 2, 5, 100}),
      Axis::choice("sync", {"each", "end"}),
  };
  family.body = replay_body;
  family.excluded = [](const Params& p) { return layer_lacks(p); };
  family.control = [](const Params& p) { return oneshot_control(p, p.get_count("replays") >= 2); };
  add_known_bad(family, {frees_capture_at_end()});
  return family;
}

HOSTCB_FAMILY(replay_family);

}  // namespace hostcb::cases
