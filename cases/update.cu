// update: changing a host node's function and userData, and what each change reaches.
//
// The graph holds one host node calling probe site 0; site 1 is the replacement. Every
// change goes through the scenario's forwarding layer, which must keep what the old
// function needs for as long as an exec still calls it.
//   exec_set_params   cudaGraphExecHostNodeSetParams after N launches: the next N call
//                     site 1 only; site 0 is never called again
//   exec_update       cudaGraphExecUpdate from a graph of the same shape calling site 1:
//                     the same, through a whole-graph update (must return success)
//   graph_set_params  cudaGraphHostNodeSetParams changes the graph, not the exec made
//                     before (it keeps calling site 0); an exec made after calls site 1
//   upload            cudaGraphUpload before the first launch calls nothing; then N
//                     launches call site 0 N times
#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "model/errors.hpp"
#include "cases/host_chain.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

void update_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const std::string& what = run.param("case");
  const std::string& build = run.param("build");
  const std::int64_t launches = run.count("replays");
  const auto n = static_cast<std::uint64_t>(launches);
  Probe& probe = run.make_probe(2, n);
  Stream stream = make_stream();
  Graph graph = build_host_chain(run, stream.get(), build, 0, 1);
  std::vector<cudaGraphNode_t> nodes = host_nodes(graph.get());
  if (nodes.size() != 1) throw std::runtime_error(str("the graph holds ", nodes.size(), " host nodes; expected 1"));
  GraphExec exec = api.instantiate(graph.get());

  if (what == "exec_set_params") {
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
    run.forward().exec_set_host_node(api, exec.get(), nodes[0], Probe::host_fn(), probe.user_data(1));
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
  } else if (what == "exec_update") {
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
    Graph replacement = build_host_chain(run, stream.get(), build, 1, 1);
    ApiResult updated = api.try_exec_update(exec.get(), replacement.get());
    HOSTCB_EXPECT(updated.code == 0, str("updating the exec from a graph of the same shape returned ", updated.name,
                                         " (", updated.code, "); expected success"));
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
  } else if (what == "graph_set_params") {
    run.forward().graph_set_host_node(api, graph.get(), nodes[0], Probe::host_fn(), probe.user_data(1));
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
    HOSTCB_EXPECT(probe.site_calls(1) == 0, "changing the graph's host node changed an exec made before");
    GraphExec later = api.instantiate(graph.get());
    launch_and_check(run, later.get(), stream.get(), launches, 1);
  } else {  // upload
    probe.expect_calls(1, 0);
    api.upload(exec.get(), stream.get());
    api.synchronize(stream.get());
    HOSTCB_EXPECT(probe.total_calls() == 0, str("uploading the exec called host functions ", probe.total_calls(), " times"));
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
  }
}

}  // namespace

Family update_family() {
  Family family;
  family.name = "update";
  family.summary = "exec host-node params, exec update, graph host-node params, upload: each reaches what it should";
  family.axes = {
      api_axis(),
      forward_axis(),
      Axis::choice("case", {"exec_set_params", "exec_update", "graph_set_params", "upload"}),
      Axis::choice("build", {"capture", "capture_by_layer", "node"}),
      Axis::count("replays", {1, 2, 5}),
  };
  family.body = update_body;
  family.excluded = [](const Params& p) {
    const std::string& what = p.get("case");
    if (what == "exec_set_params") return layer_lacks(p, {LayerOp::exec_set_host_node});
    if (what == "graph_set_params") return layer_lacks(p, {LayerOp::graph_set_host_node});
    return layer_lacks(p);
  };
  family.control = [](const Params& p) { return oneshot_control(p, p.get_count("replays") >= 2); };
  family.requirements = [](const Params& p) {
    Requirements needs;
    if (p.get("case") == "exec_update") needs.min_runtime = needs.min_driver = 12000;  // the ResultInfo form
    return needs;
  };
  return family;
}

HOSTCB_FAMILY(update_family);

}  // namespace hostcb::cases
