// replay: the regression hostcb exists for. A graph holding host functions must call
// each of them once on every launch, not only the first.
//
// Two host functions, chained, each with its own userData, are put in a graph by stream
// capture (global, thread-local, relaxed mode) or as explicit host nodes, through the
// driver or the runtime API. The graph is launched N times; with sync=each the stream
// is synchronized after every launch and the count must have grown by exactly 2.
#include <cstring>

#include "cases.hpp"
#include "errors.hpp"
#include "scenario_run.hpp"

namespace hostcb::cases {

namespace {

constexpr std::size_t kHostFunctions = 2;

Graph build_graph(ScenarioRun& run, Probe& probe, cudaStream_t stream) {
  const GraphApi& api = run.api();
  Forwarder& forward = run.forward();
  const std::string& build = run.param("build");
  if (build == "node") {
    Graph graph = api.create_graph();
    std::vector<cudaGraphNode_t> previous;
    for (std::size_t i = 0; i < kHostFunctions; ++i)
      previous = {forward.add_host_node(api, graph.get(), previous, Probe::host_fn(), probe.user_data(i))};
    return graph;
  }
  CaptureMode mode = parse_capture_mode(build.substr(std::strlen("capture_")));
  return capture_graph(api, stream, mode, [&] {
    for (std::size_t i = 0; i < kHostFunctions; ++i)
      forward.launch_host_func(api, stream, Probe::host_fn(), probe.user_data(i));
  });
}

void replay_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const std::int64_t replays = run.count("replays");
  const bool sync_each = run.param("sync") == "each";

  Probe& probe = run.make_probe(kHostFunctions, static_cast<std::uint64_t>(replays));
  probe.expect_in_order();
  Stream stream = make_stream();
  Graph graph = build_graph(run, probe, stream.get());

  GraphShape shape = graph_shape(graph.get());
  HOSTCB_EXPECT(shape.nodes == kHostFunctions && shape.host_nodes == kHostFunctions,
                str("the graph holds ", shape.nodes, " nodes, ", shape.host_nodes, " of them host nodes"));

  GraphExec exec = api.instantiate(graph.get());
  for (std::int64_t launch = 1; launch <= replays; ++launch) {
    run.set_launch(launch);
    api.launch(exec.get(), stream.get());
    if (!sync_each) continue;
    api.synchronize(stream.get());
    const std::uint64_t want = kHostFunctions * static_cast<std::uint64_t>(launch);
    HOSTCB_EXPECT(probe.total_calls() == want,
                  str("after launch ", launch, " of ", replays, " the host functions had been called ",
                      probe.total_calls(), " times"));
  }
  api.synchronize(stream.get());
}

}  // namespace

Family replay_family() {
  Family family;
  family.name = "replay";
  family.summary = "a graph of 2 host functions is launched N times: each is called exactly once per launch";
  family.axes = {
      Axis::choice("api", {"driver", "runtime"}),
      Axis::choice("build", {"capture_global", "capture_thread_local", "capture_relaxed", "node"}),
      Axis::count("replays", {1, 2, 5, 100}),
      Axis::choice("sync", {"each", "end"}),
  };
  family.body = replay_body;
  return family;
}

}  // namespace hostcb::cases
