// topology: host nodes in graphs of other shapes, each called once per launch.
//
//   branches          8 host functions on parallel branches. node: 8 root nodes; capture:
//                     fork and join across 8 streams with events, each branch a side stream
//                     the capture reached (capture_by_layer: inside the layer's own capture,
//                     each host function enqueued through the layer on its side stream)
//   chain             1,000 host functions one after the other, called in order
//   mixed             kernel -> host -> copy -> host -> kernel: the first host function
//                     reads the kernel's value for its launch and writes its answer, the
//                     copy moves it, the second host function and the last kernel must
//                     read the copy
//   capture_to_graph  one explicit host node, then 2 host functions captured after it
//                     into the same graph (cudaStreamBeginCaptureToGraph, CUDA 12.3)
#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "cuda/kernel_launch.hpp"
#include "model/errors.hpp"
#include "cases/host_chain.hpp"
#include "runner/scenario_run.hpp"
#include "cases/stamp_kernels.cuh"

namespace hostcb::cases {

namespace {

constexpr std::size_t kBranches = 8;
constexpr std::size_t kChain = 1000;

Graph build_branches(ScenarioRun& run, cudaStream_t origin) {
  const GraphApi& api = run.api();
  Forwarder& forward = run.forward();
  Probe& probe = *run.probe();
  if (run.param("build") == "node") {
    Graph graph = api.create_graph();
    for (std::size_t i = 0; i < kBranches; ++i) forward.add_host_node(api, graph.get(), {}, Probe::host_fn(), probe.user_data(i));
    return graph;
  }
  std::vector<Stream> branches;
  std::vector<Event> joins;
  Event fork = api.make_event();
  for (std::size_t i = 0; i < kBranches; ++i) {
    branches.push_back(api.make_stream());
    joins.push_back(api.make_event());
  }
  return capture_for_build(run, origin, parse_build(run.param("build")), [&] {
    api.record_event(fork.get(), origin);
    for (std::size_t i = 0; i < kBranches; ++i) {
      cudaStream_t branch = branches[i].get();
      api.wait_event(branch, fork.get());
      forward.launch_host_func(api, branch, Probe::host_fn(), probe.user_data(i));
      api.record_event(joins[i].get(), branch);
      api.wait_event(origin, joins[i].get());
    }
  });
}

// The first host function (site 0) checks the kernel's value and answers; the second
// (site 1) checks that the copy node carried the answer.
void arm_mixed_checks(Probe& probe, volatile StampCells* shared) {
  probe.set_action(0, HOSTCB_HERE, [shared](std::int64_t launch) {
    HOSTCB_EXPECT(shared->from_kernel == static_cast<unsigned>(launch),
                  str("[stamp] the first host function of launch ", launch, " read launch ", shared->from_kernel, "'s value"));
    shared->from_host = host_answer(launch);
  });
  probe.set_action(1, HOSTCB_HERE, [shared](std::int64_t launch) {
    HOSTCB_EXPECT(shared->copied == host_answer(launch),
                  str("[stamp] the second host function of launch ", launch, " read ", shared->copied, " from the copy; expected ",
                      host_answer(launch)));
  });
}

Graph build_mixed(ScenarioRun& run, cudaStream_t stream, StampCells* cells) {
  const GraphApi& api = run.api();
  Forwarder& forward = run.forward();
  Probe& probe = *run.probe();
  int read_copy = 1;
  if (run.param("build") == "node") {
    Graph graph = api.create_graph();
    void* stamp_args[] = {&cells};
    void* echo_args[] = {&cells, &read_copy};
    cudaGraphNode_t node = api.add_kernel_node(graph.get(), {}, reinterpret_cast<const void*>(&stamp), stamp_args);
    node = forward.add_host_node(api, graph.get(), {node}, Probe::host_fn(), probe.user_data(0));
    node = api.add_memcpy_node(graph.get(), {node}, &cells->copied, &cells->from_host, sizeof(unsigned));
    node = forward.add_host_node(api, graph.get(), {node}, Probe::host_fn(), probe.user_data(1));
    api.add_kernel_node(graph.get(), {node}, reinterpret_cast<const void*>(&echo), echo_args);
    return graph;
  }
  return capture_for_build(run, stream, parse_build(run.param("build")), [&] {
    HOSTCB_CUDA(launch_kernel(stamp, 1, 1, stream, cells));
    forward.launch_host_func(api, stream, Probe::host_fn(), probe.user_data(0));
    HOSTCB_CUDA(cudaMemcpyAsync(&cells->copied, &cells->from_host, sizeof(unsigned), cudaMemcpyDefault, stream));
    forward.launch_host_func(api, stream, Probe::host_fn(), probe.user_data(1));
    HOSTCB_CUDA(launch_kernel(echo, 1, 1, stream, cells, read_copy));
  });
}

Graph build_capture_to_graph(ScenarioRun& run, cudaStream_t stream) {
  const GraphApi& api = run.api();
  Forwarder& forward = run.forward();
  Probe& probe = *run.probe();
  Graph graph = api.create_graph();
  cudaGraphNode_t first = forward.add_host_node(api, graph.get(), {}, Probe::host_fn(), probe.user_data(0));
  api.begin_capture_to_graph(stream, graph.get(), {first}, CaptureMode::global);
  try {
    forward.launch_host_func(api, stream, Probe::host_fn(), probe.user_data(1));
    forward.launch_host_func(api, stream, Probe::host_fn(), probe.user_data(2));
  } catch (...) {
    Graph same;
    api.try_end_capture(stream, same);
    same.release();  // the graph we already own
    throw;
  }
  Graph same = api.end_capture(stream);
  cudaGraph_t returned = same.release();  // the graph we already own
  HOSTCB_EXPECT(returned == graph.get(), "[graph] ending a capture into a graph returned another graph");
  return graph;
}

void topology_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const std::string& shape = run.param("shape");
  const std::int64_t launches = run.count("replays");
  const auto n = static_cast<std::uint64_t>(launches);
  Stream stream = api.make_stream();
  PinnedMemory memory;
  Graph graph;
  std::size_t sites = 0;
  if (shape == "branches") {
    sites = kBranches;
    run.make_probe(sites, n);
    graph = build_branches(run, stream.get());
  } else if (shape == "chain") {
    sites = kChain;
    run.make_probe(sites, n).expect_in_order();
    graph = build_host_chain(run, stream.get(), run.param("build"), 0, kChain);
  } else if (shape == "mixed") {
    sites = 2;
    Probe& probe = run.make_probe(sites, n);
    probe.expect_in_order();
    memory = make_pinned(sizeof(StampCells));
    auto* cells = static_cast<StampCells*>(memory.get());
    *cells = StampCells{};
    arm_mixed_checks(probe, cells);
    graph = build_mixed(run, stream.get(), cells);
  } else {  // capture_to_graph
    sites = 3;
    run.make_probe(sites, n).expect_in_order();
    graph = build_capture_to_graph(run, stream.get());
  }
  GraphShape made = api.graph_shape(graph.get());
  HOSTCB_EXPECT(made.host_nodes == sites, str("[graph] the graph holds ", made.host_nodes, " host nodes; expected ", sites));
  GraphExec exec = api.instantiate(graph.get());
  launch_and_check(run, exec.get(), stream.get(), launches, sites);
  if (shape == "mixed") {
    auto* cells = static_cast<volatile StampCells*>(memory.get());
    for (std::int64_t launch = 1; launch <= launches; ++launch)
      HOSTCB_EXPECT(cells->echoes[launch - 1] == host_answer(launch),
                    str("[stamp] the last kernel of launch ", launch, " read ", cells->echoes[launch - 1], "; expected ",
                        host_answer(launch)));
  }
}

}  // namespace

Family topology_family() {
  Family family;
  family.name = "topology";
  family.summary = "8 parallel branches (fork/join capture), a chain of 1,000, host nodes mixed with kernels and a copy, capture into a graph";
  family.axes = {
      api_axis(),
      forward_axis(),
      Axis::choice("shape", {"branches", "chain", "mixed", "capture_to_graph"}),
      build_axis(),
      Axis::count("replays", {1, 2, 5}),
  };
  family.body = topology_body;
  family.excluded = [](const Params& p) -> std::optional<std::string> {
    if (p.get("shape") == "capture_to_graph" && p.get("build") == "node")
      return "capture_to_graph is a capture (into a graph that already holds a node)";
    if (p.get("shape") == "capture_to_graph" && p.get("build") == "capture_by_layer")
      return "capture_to_graph is CUDA's capture into a graph that already holds a node; a layer's capture makes a graph of its own";
    // capture_to_graph adds its first host node itself, then captures after it; branches
    // in the layer's own capture launches each host function on a side stream it forked.
    std::vector<LayerOp> ops;
    if (p.get("shape") == "capture_to_graph") ops.push_back(LayerOp::add_host_node);
    if (p.get("shape") == "branches" && p.get("build") == "capture_by_layer") ops.push_back(LayerOp::launch_on_forked_stream);
    return layer_lacks(p, ops);
  };
  family.control = [](const Params& p) { return oneshot_control(p, p.get_count("replays") >= 2); };
  family.requirements = [](const Params& p) {
    Requirements needs;
    if (p.get("shape") == "capture_to_graph") needs.min_runtime = needs.min_driver = 12030;
    return needs;
  };
  // A layer that, during its own capture, takes a side stream the capture reached through
  // an event for a plain stream, and frees its record after the first call.
  add_known_bad(family, {frees_capture_at_end(),
                         {"forgets_side_streams",
                          [](const Params& p) {
                            return p.get("shape") == "branches" && p.get("build") == "capture_by_layer" &&
                                   p.get_count("replays") >= 2;
                          },
                          fails_or_crashes()}});
  return family;
}

HOSTCB_FAMILY(topology_family);

}  // namespace hostcb::cases
