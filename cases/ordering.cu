// ordering: stream order around a host node holds on every launch, not only the first.
//
// Graph: kernel `stamp` -> host function -> kernel `echo`. On launch k, stamp writes k to
// pinned memory; the host function must read k there (it ran after the kernel of its own
// launch, and before the next launch's), and writes its answer for k; echo must read
// that answer (it ran after the host function). With sync=end the launches are queued
// back to back, so a host node that ran early or late reads another launch's value.
#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "cases/host_chain.hpp"
#include "cuda/kernel_launch.hpp"
#include "model/errors.hpp"
#include "runner/scenario_run.hpp"
#include "cases/stamp_kernels.cuh"

namespace hostcb::cases {

namespace {

Graph build_ordering_graph(ScenarioRun& run, cudaStream_t stream, StampCells* cells) {
  const GraphApi& api = run.api();
  void* site = run.probe()->user_data(0);
  int read_copy = 0;
  if (run.param("build") == "node") {
    Graph graph = api.create_graph();
    void* stamp_args[] = {&cells};
    void* echo_args[] = {&cells, &read_copy};
    cudaGraphNode_t first = api.add_kernel_node(graph.get(), {}, reinterpret_cast<const void*>(&stamp), stamp_args);
    cudaGraphNode_t host = run.forward().add_host_node(api, graph.get(), {first}, Probe::host_fn(), site);
    api.add_kernel_node(graph.get(), {host}, reinterpret_cast<const void*>(&echo), echo_args);
    return graph;
  }
  return capture_for_build(run, stream, parse_build(run.param("build")), [&] {
    HOSTCB_CUDA(launch_kernel(stamp, 1, 1, stream, cells));
    run.forward().launch_host_func(api, stream, Probe::host_fn(), site);
    HOSTCB_CUDA(launch_kernel(echo, 1, 1, stream, cells, read_copy));
  });
}

void ordering_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const std::int64_t launches = run.count("replays");
  const bool sync_each = run.param("sync") == "each";
  Probe& probe = run.make_probe(1, static_cast<std::uint64_t>(launches));
  PinnedMemory memory = make_pinned(sizeof(StampCells));
  auto* cells = static_cast<StampCells*>(memory.get());
  *cells = StampCells{};
  volatile StampCells* shared = cells;

  probe.set_action(0, HOSTCB_HERE, [shared](std::int64_t launch) {
    const unsigned seen = shared->from_kernel;
    HOSTCB_EXPECT(seen == static_cast<unsigned>(launch),
                  str("[stamp] the host function of launch ", launch, " read launch ", seen, "'s value from the kernel before it"));
    shared->from_host = host_answer(launch);
  });

  Stream stream = api.make_stream();
  Graph graph = build_ordering_graph(run, stream.get(), cells);
  GraphExec exec = api.instantiate(graph.get());
  for (std::int64_t launch = 1; launch <= launches; ++launch) {
    run.set_launch(launch, launches);
    api.launch(exec.get(), stream.get());
    if (sync_each) api.synchronize(stream.get());
  }
  api.synchronize(stream.get());
  HOSTCB_EXPECT(shared->generation == static_cast<unsigned>(launches),
                str("[kernel] the kernels ran ", shared->generation, " times for ", launches, " launches"));
  for (std::int64_t launch = 1; launch <= launches; ++launch) {
    const unsigned echoed = shared->echoes[launch - 1];
    HOSTCB_EXPECT(echoed == host_answer(launch), str("[stamp] the kernel after the host function read ", echoed, " on launch ",
                                                     launch, "; the host function had written ", host_answer(launch)));
  }
}

}  // namespace

Family ordering_family() {
  Family family;
  family.name = "ordering";
  family.summary = "kernel -> host function -> kernel: each sees the value of its own launch, on every launch";
  family.axes = {
      api_axis(),
      forward_axis(),
      build_axis(),
      Axis::count("replays", {1, 2, 5, 100}),
      Axis::choice("sync", {"each", "end"}),
  };
  family.body = ordering_body;
  family.excluded = [](const Params& p) { return layer_lacks(p); };
  family.control = [](const Params& p) { return oneshot_control(p, p.get_count("replays") >= 2); };
  add_known_bad(family, {frees_capture_at_end()});
  return family;
}

HOSTCB_FAMILY(ordering_family);

}  // namespace hostcb::cases
