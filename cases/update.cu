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
//   exec_set_params_leaves_others, exec_update_leaves_others
//                     the same two exec-level updates, then everything else that holds the
//                     node, launched again N times each: a second exec made before the
//                     update, the graph's node itself (its parameters unchanged), and an exec
//                     instantiated from the graph afterwards all still call site 0 only
//   exec_set_params_second, graph_set_params_second
//                     a chain of two host nodes (sites 0 and 1), the second changed to call
//                     site 2 through the layer, in an exec or in the graph: the first node
//                     keeps calling site 0, every launch of the exec updated (or of one made
//                     from the graph after) calls sites 0 and 2 once, and the graph's first
//                     node and an exec made before keep what they held
#include <algorithm>

#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "model/errors.hpp"
#include "cases/host_chain.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

bool leaves_others(const std::string& what) { return what == "exec_set_params_leaves_others" || what == "exec_update_leaves_others"; }
bool by_exec_update(const std::string& what) { return what == "exec_update" || what == "exec_update_leaves_others"; }

// Launches `exec` `launches` times, synchronizing after each: every launch must call each
// of `sites` once and no other site of the probe.
void launch_calling_sites(ScenarioRun& run, cudaGraphExec_t exec, cudaStream_t stream, std::int64_t launches,
                          const std::vector<std::size_t>& sites, const char* which) {
  const GraphApi& api = run.api();
  Probe& probe = *run.probe();
  api.synchronize(stream);
  std::vector<std::uint64_t> before(probe.sites());
  for (std::size_t site = 0; site < before.size(); ++site) before[site] = probe.site_calls(site);
  for (std::int64_t launch = 1; launch <= launches; ++launch) {
    run.set_launch(launch, launches);
    api.launch(exec, stream);
    api.synchronize(stream);
    for (std::size_t site = 0; site < before.size(); ++site) {
      const bool wanted = std::find(sites.begin(), sites.end(), site) != sites.end();
      const std::uint64_t calls = probe.site_calls(site) - before[site];
      HOSTCB_EXPECT(calls == (wanted ? static_cast<std::uint64_t>(launch) : 0),
                    str("[update] after launch ", launch, " of ", launches, " of ", which, ", host function #", site,
                        " had been called ", calls, " times; expected ", wanted ? launch : 0));
    }
  }
}

// The same with one site: every launch calls host function `site` once and no other.
void launch_calling(ScenarioRun& run, cudaGraphExec_t exec, cudaStream_t stream, std::int64_t launches, std::size_t site,
                    const char* which) {
  launch_calling_sites(run, exec, stream, launches, {site}, which);
}

// Changes `exec`'s instance of `node` to call site 1, the way the case says: through the
// layer's exec_set_host_node, or by cudaGraphExecUpdate from a graph built the same way
// (returned: the exec now calls what it holds).
Graph update_exec(ScenarioRun& run, cudaStream_t stream, cudaGraphExec_t exec, cudaGraphNode_t node) {
  const GraphApi& api = run.api();
  if (!by_exec_update(run.param("case"))) {
    run.forward().exec_set_host_node(api, exec, node, Probe::host_fn(), run.probe()->user_data(1));
    return Graph();
  }
  Graph replacement = build_host_chain(run, stream, run.param("build"), 1, 1);
  ApiResult updated = api.try_exec_update(exec, replacement.get());
  HOSTCB_EXPECT(updated.code == 0, str("[update] updating the exec from a graph of the same shape returned ", updated.name,
                                       " (", updated.code, "); expected success"));
  return replacement;
}

// An exec-level update reaches that exec only: an exec made before, the graph's node and
// an exec made from the graph afterwards each keep calling the old function (site 0).
void check_leaves_others(ScenarioRun& run, cudaStream_t stream, cudaGraph_t graph, cudaGraphNode_t node) {
  const GraphApi& api = run.api();
  const std::int64_t launches = run.count("replays");
  GraphExec updated = api.instantiate(graph);
  GraphExec before = api.instantiate(graph);
  const HostNodeParams held = api.host_node_params(node);
  launch_calling(run, updated.get(), stream, launches, 0, "the exec to be updated");
  Graph replacement = update_exec(run, stream, updated.get(), node);
  launch_calling(run, updated.get(), stream, launches, 1, "the updated exec");
  launch_calling(run, before.get(), stream, launches, 0, "an exec made before the update");
  const HostNodeParams now = api.host_node_params(node);
  HOSTCB_EXPECT(now.fn == held.fn && now.user_data == held.user_data,
                str("[update] updating an exec changed the graph's host node: it held (", reinterpret_cast<void*>(held.fn),
                    ", ", held.user_data, ") and now holds (", reinterpret_cast<void*>(now.fn), ", ", now.user_data, ")"));
  GraphExec after = api.instantiate(graph);
  launch_calling(run, after.get(), stream, launches, 0, "an exec made from the graph after the update");
}

bool second_of_two(const std::string& what) { return what == "exec_set_params_second" || what == "graph_set_params_second"; }

// The chain's two host nodes, in the order they call: the one holding site 0, then site 1.
// A layer's node may hold its own record rather than the probe's userData, so the order is
// cudaGraphGetNodes', which lists nodes in the order they were made; where a node holds a
// probe site's userData (the direct layer), that order is checked, not assumed.
std::pair<cudaGraphNode_t, cudaGraphNode_t> chain_of_two(ScenarioRun& run, cudaGraph_t graph) {
  const GraphApi& api = run.api();
  const std::vector<cudaGraphNode_t> nodes = api.host_nodes(graph);
  if (nodes.size() != 2) throw std::runtime_error(str("the graph holds ", nodes.size(), " host nodes; expected 2"));
  for (std::size_t k = 0; k < 2; ++k) {
    void* held = api.host_node_params(nodes[k]).user_data;
    if (held == run.probe()->user_data(1 - k))
      throw std::runtime_error(str("cudaGraphGetNodes lists host node ", k, " of the chain at ", 1 - k,
                                   ": not the order they were made"));
  }
  return {nodes[0], nodes[1]};
}

// One node among two, changed through the layer: the other must not move.
void check_second_of_two(ScenarioRun& run, cudaStream_t stream) {
  const GraphApi& api = run.api();
  const std::int64_t launches = run.count("replays");
  const auto n = static_cast<std::uint64_t>(launches);
  Probe& probe = run.make_probe(3, n);
  probe.expect_calls(0, 2 * n);
  Graph graph = build_host_chain(run, stream, run.param("build"), 0, 2);
  const auto [first, second] = chain_of_two(run, graph.get());
  const HostNodeParams first_held = api.host_node_params(first);
  GraphExec exec = api.instantiate(graph.get());
  if (run.param("case") == "exec_set_params_second") {
    launch_calling_sites(run, exec.get(), stream, launches, {0, 1}, "the exec before its update");
    run.forward().exec_set_host_node(api, exec.get(), second, Probe::host_fn(), probe.user_data(2));
    launch_calling_sites(run, exec.get(), stream, launches, {0, 2}, "the exec whose second host node was updated");
  } else {
    run.forward().graph_set_host_node(api, graph.get(), second, Probe::host_fn(), probe.user_data(2));
    launch_calling_sites(run, exec.get(), stream, launches, {0, 1}, "an exec made before the graph's update");
    GraphExec after = api.instantiate(graph.get());
    launch_calling_sites(run, after.get(), stream, launches, {0, 2}, "an exec made after the graph's second host node was updated");
  }
  const HostNodeParams first_now = api.host_node_params(first);
  HOSTCB_EXPECT(first_now.fn == first_held.fn && first_now.user_data == first_held.user_data,
                str("[update] updating the second host node changed the first: it held (",
                    reinterpret_cast<void*>(first_held.fn), ", ", first_held.user_data, ") and now holds (",
                    reinterpret_cast<void*>(first_now.fn), ", ", first_now.user_data, ")"));
}

void update_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const std::string& what = run.param("case");
  const std::string& build = run.param("build");
  const std::int64_t launches = run.count("replays");
  const auto n = static_cast<std::uint64_t>(launches);
  if (second_of_two(what)) {
    Stream stream = api.make_stream();
    return check_second_of_two(run, stream.get());
  }
  Probe& probe = run.make_probe(2, n);
  Stream stream = api.make_stream();
  Graph graph = build_host_chain(run, stream.get(), build, 0, 1);
  std::vector<cudaGraphNode_t> nodes = api.host_nodes(graph.get());
  if (nodes.size() != 1) throw std::runtime_error(str("the graph holds ", nodes.size(), " host nodes; expected 1"));

  if (leaves_others(what)) {
    probe.expect_calls(0, 3 * n);  // the exec before its update, the exec made before, the exec made after
    return check_leaves_others(run, stream.get(), graph.get(), nodes[0]);
  }
  GraphExec exec = api.instantiate(graph.get());
  if (what == "exec_set_params" || what == "exec_update") {
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
    Graph replacement = update_exec(run, stream.get(), exec.get(), nodes[0]);
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
  } else if (what == "graph_set_params") {
    run.forward().graph_set_host_node(api, graph.get(), nodes[0], Probe::host_fn(), probe.user_data(1));
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
    HOSTCB_EXPECT(probe.site_calls(1) == 0, "[update] changing the graph's host node changed an exec made before");
    GraphExec later = api.instantiate(graph.get());
    launch_and_check(run, later.get(), stream.get(), launches, 1);
  } else {  // upload
    probe.expect_calls(1, 0);
    api.upload(exec.get(), stream.get());
    api.synchronize(stream.get());
    HOSTCB_EXPECT(probe.total_calls() == 0,
                  str("[count] uploading the exec called host functions ", probe.total_calls(), " times"));
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
  }
}

// Where a record the layer made is called again after its first call: with 2 or more
// launches; in the leaves_others cases always (an exec made before shares the graph's); and
// in the second_of_two ones (the first node's record, launched before and after the update).
bool record_called_again(const Params& p) {
  return p.get_count("replays") >= 2 || leaves_others(p.get("case")) || second_of_two(p.get("case"));
}

}  // namespace

Family update_family() {
  Family family;
  family.name = "update";
  family.summary = "exec host-node params, exec update, graph host-node params, upload: each reaches what it should, and nothing else";
  family.axes = {
      api_axis(),
      forward_axis(),
      Axis::choice("case", {"exec_set_params", "exec_update", "graph_set_params", "upload",
                            "exec_set_params_leaves_others", "exec_update_leaves_others", "exec_set_params_second",
                            "graph_set_params_second"}),
      Axis::choice("build", {"capture", "capture_by_layer", "node"}),
      Axis::count("replays", {1, 2, 5}),
  };
  family.body = update_body;
  family.excluded = [](const Params& p) {
    const std::string& what = p.get("case");
    if (what == "exec_set_params" || what == "exec_set_params_leaves_others" || what == "exec_set_params_second")
      return layer_lacks(p, {LayerOp::exec_set_host_node});
    if (what == "graph_set_params" || what == "graph_set_params_second")
      return layer_lacks(p, {LayerOp::graph_set_host_node});
    return layer_lacks(p);
  };
  family.control = [](const Params& p) { return oneshot_control(p, record_called_again(p)); };
  family.requirements = [](const Params& p) {
    Requirements needs;
    if (by_exec_update(p.get("case"))) needs.min_runtime = needs.min_driver = 12000;  // the ResultInfo form
    return needs;
  };
  // Exec-level updates that touch what they must not: the record the graph and the other
  // execs share, rewritten (all switch) or freed (they call freed memory); the graph's own
  // node set too; and a layer whose one record per stream a second capture rewrites.
  const auto set_leaves_others = [](const Params& p) { return p.get("case") == "exec_set_params_leaves_others"; };
  add_known_bad(family, {
      {"rewrites_shared_record", set_leaves_others, caught_by("[update]")},
      {"frees_shared_record", set_leaves_others, fails_or_crashes()},
      {"updates_graph_too", set_leaves_others, caught_by("[update]")},
      {"updates_first_host_node",
       [](const Params& p) {
         return p.get("case") == "graph_set_params_second" ||
                (p.get("case") == "exec_set_params_second" && p.get("build") == "node");
       },
       caught_by("[update]")},
      {"record_per_stream",
       [](const Params& p) { return p.get("case") == "exec_update_leaves_others" && p.get("build") != "node"; },
       caught_by("[update]")},
      frees_capture_at_end(),
  });
  return family;
}

HOSTCB_FAMILY(update_family);

}  // namespace hostcb::cases
