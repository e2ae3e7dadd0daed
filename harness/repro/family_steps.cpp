#include "repro/family_steps.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/errors.hpp"

namespace hostcb::repro {

namespace {

int capture_mode(const std::string& name) {
  if (name == "global") return 0;
  if (name == "thread_local") return 1;
  if (name == "relaxed") return 2;
  throw UsageError("no reproducer steps for the capture mode '" + name + "'");
}

// A chain of host functions `first`.. `first + count - 1` in a new graph, built the way the
// `build` axis says (cases/host_chain.cpp's build_host_chain): host nodes added through the
// layer, CUDA's capture of the layer's enqueues, or a capture the layer begins and ends.
std::string host_chain(Writer& out, const std::string& stream, const std::string& build, int first, int count) {
  if (build == "node") {
    const std::string graph = out.create_graph();
    std::vector<std::string> previous;
    for (int site = first; site < first + count; ++site) previous = {out.layer_add_host_node(graph, previous, site)};
    return graph;
  }
  const bool by_layer = build == "capture_by_layer";
  const int mode = by_layer || build == "capture" ? 0 : capture_mode(build.substr(std::string("capture_").size()));
  if (by_layer)
    out.layer_begin_capture(stream, mode);
  else
    out.begin_capture(stream, mode);
  for (int site = first; site < first + count; ++site) out.layer_launch_host_func(stream, site);
  return by_layer ? out.layer_end_capture(stream) : out.end_capture(stream);
}

// cases/replay.cu: a chain of two host functions, launched `replays` times.
void replay(const Params& p, const Header& header, Writer& out) {
  const std::int64_t replays = p.get_count("replays");
  const bool sync_each = p.get("sync") == "each";
  out.begin(header, 2);
  const std::string stream = out.stream();
  const std::string graph = host_chain(out, stream, p.get("build"), 0, 2);
  const std::string exec = out.instantiate(graph);
  out.launches(replays);
  out.launch(exec, stream);
  if (sync_each) {
    out.synchronize(stream);
    for (int site = 0; site < 2; ++site) out.expect_calls(site, {1, 0}, "after launch");
  }
  out.end_launches();
  out.synchronize(stream);
  const std::string when = "after " + std::to_string(replays) + " launch" + (replays == 1 ? "" : "es");
  for (int site = 0; site < 2; ++site) out.expect_calls(site, {0, replays}, when);
  out.expect_order({0, 1});
  out.destroy_exec(exec);
  out.destroy_graph(graph);
}

// cases/stream_callback.cu (gate=open): n stream callbacks on one stream.
void stream_callback(const Params& p, const Header& header, Writer& out) {
  if (p.get("gate") != "open")
    throw UsageError("stream_callback has reproducer steps for gate=open only: gate=held holds the stream with a kernel");
  const auto callbacks = static_cast<int>(p.get_count("callbacks"));
  out.begin(header, callbacks);
  const std::string stream = out.stream();
  for (int site = 0; site < callbacks; ++site) out.layer_add_stream_callback(stream, site);
  out.synchronize(stream);
  for (int site = 0; site < callbacks; ++site) out.expect_calls(site, {0, 1}, "after the stream was synchronized");
  std::vector<int> in_order;
  for (int site = 0; site < callbacks; ++site) in_order.push_back(site);
  out.expect_order(in_order);
  out.expect_callback_arguments(stream);
}

// cases/update.cu, the cases that change a host node through the layer (and upload).
void update(const Params& p, const Header& header, Writer& out) {
  const std::string what = p.get("case");
  const std::string build = p.get("build");
  const std::int64_t n = p.get_count("replays");
  auto launch_calling = [&](const std::string& exec, const std::string& stream, const std::vector<int>& sites,
                            int all_sites, const std::vector<std::int64_t>& before, const std::string& which) {
    out.launches(n);
    out.launch(exec, stream);
    out.synchronize(stream);
    for (int site = 0; site < all_sites; ++site) {
      const bool wanted = std::find(sites.begin(), sites.end(), site) != sites.end();
      out.expect_calls(site, {wanted ? 1 : 0, before[site]}, "[update] " + which + ": after launch");
    }
    out.end_launches();
  };
  if (what == "exec_set_params_second" || what == "graph_set_params_second") {
    out.begin(header, 3);
    const std::string stream = out.stream();
    const std::string graph = host_chain(out, stream, build, 0, 2);
    const std::string nodes = out.host_nodes(graph, 2);
    const std::string exec = out.instantiate(graph);
    if (what == "exec_set_params_second") {
      launch_calling(exec, stream, {0, 1}, 3, {0, 0, 0}, "the exec before its update");
      out.layer_exec_set_host_node(exec, out.node(nodes, 1), 2);
      launch_calling(exec, stream, {0, 2}, 3, {n, n, 0}, "the exec whose second host node was updated");
    } else {
      out.layer_graph_set_host_node(graph, out.node(nodes, 1), 2);
      launch_calling(exec, stream, {0, 1}, 3, {0, 0, 0}, "an exec made before the graph's update");
      const std::string after = out.instantiate(graph);
      launch_calling(after, stream, {0, 2}, 3, {n, n, 0}, "an exec made after the graph's second host node was updated");
      out.destroy_exec(after);
    }
    out.destroy_exec(exec);
    out.destroy_graph(graph);
    return;
  }
  if (what != "exec_set_params" && what != "graph_set_params" && what != "upload")
    throw UsageError("update has reproducer steps for case=exec_set_params, graph_set_params, upload, "
                     "exec_set_params_second and graph_set_params_second; not yet for case=" + what);
  out.begin(header, 2);
  const std::string stream = out.stream();
  const std::string graph = host_chain(out, stream, build, 0, 1);
  const std::string nodes = out.host_nodes(graph, 1);
  const std::string exec = out.instantiate(graph);
  if (what == "exec_set_params") {
    launch_calling(exec, stream, {0}, 2, {0, 0}, "the exec before its update");
    out.layer_exec_set_host_node(exec, out.node(nodes, 0), 1);
    launch_calling(exec, stream, {1}, 2, {n, 0}, "the updated exec");
  } else if (what == "graph_set_params") {
    out.layer_graph_set_host_node(graph, out.node(nodes, 0), 1);
    launch_calling(exec, stream, {0}, 2, {0, 0}, "an exec made before the graph's update");
    const std::string later = out.instantiate(graph);
    launch_calling(later, stream, {1}, 2, {n, 0}, "an exec made after the graph's update");
    out.destroy_exec(later);
  } else {  // upload: calls nothing until the first launch
    out.upload(exec, stream);
    out.synchronize(stream);
    out.expect_calls(0, {0, 0}, "[count] after the upload");
    launch_calling(exec, stream, {0}, 2, {0, 0}, "the uploaded exec");
  }
  out.destroy_exec(exec);
  out.destroy_graph(graph);
}

// Launches `exec` `launches` times, synchronizing after each: each of `sites` is called
// once a launch, from `before` calls (cases/host_chain.cpp's launch_and_check, per site).
void launches_calling(Writer& out, const std::string& exec, const std::string& stream, std::int64_t launches,
                      int sites, std::int64_t before, const std::string& which) {
  out.launches(launches);
  out.launch(exec, stream);
  out.synchronize(stream);
  for (int site = 0; site < sites; ++site) out.expect_calls(site, {1, before}, "[count] " + which + ": after launch");
  out.end_launches();
}

// cases/lifetime.cu: what a host node needs outlives the graph it was built in.
void lifetime(const Params& p, const Header& header, Writer& out) {
  const std::string what = p.get("case");
  const std::string build = p.get("build");
  const std::int64_t n = p.get_count("replays");
  if (what == "graph_destroyed") {
    out.begin(header, 2);
    const std::string stream = out.stream();
    const std::string graph = host_chain(out, stream, build, 0, 2);
    const std::string exec = out.instantiate(graph);
    out.destroy_graph(graph);
    launches_calling(out, exec, stream, n, 2, 0, "the exec of a destroyed graph");
    out.destroy_exec(exec);
  } else if (what == "two_execs") {
    out.begin(header, 1);
    const std::string stream = out.stream();
    const std::string graph = host_chain(out, stream, build, 0, 1);
    const std::string first = out.instantiate(graph);
    const std::string second = out.instantiate(graph);
    launches_calling(out, first, stream, n, 1, 0, "the first exec");
    launches_calling(out, second, stream, n, 1, n, "the second exec");
    out.destroy_graph(graph);
    out.destroy_exec(first);
    launches_calling(out, second, stream, 1, 1, 2 * n, "the second exec, its graph and the first exec destroyed");
    out.destroy_exec(second);
  } else if (what == "clone" || what == "child_graph") {
    out.begin(header, 2);
    const std::string stream = out.stream();
    const std::string built = host_chain(out, stream, build, 0, 2);
    std::string graph;
    if (what == "clone") {
      graph = out.clone(built);
    } else {
      graph = out.create_graph();
      out.add_child_graph_node(graph, built);
    }
    out.destroy_graph(built);
    const std::string exec = out.instantiate(graph);
    launches_calling(out, exec, stream, n, 2, 0, what == "clone" ? "the clone's exec" : "the parent graph's exec");
    out.destroy_exec(exec);
    out.destroy_graph(graph);
  } else {
    throw UsageError("lifetime has reproducer steps for case=graph_destroyed, two_execs, clone and child_graph; "
                     "not yet for case=" + what);
  }
}

}  // namespace

std::string families_with_steps() {
  return "replay, stream_callback (gate=open), update (case=exec_set_params, graph_set_params, upload, "
         "exec_set_params_second, graph_set_params_second) and lifetime (case=graph_destroyed, two_execs, clone, "
         "child_graph)";
}

// A Writer that writes nothing: has_steps asks write_steps whether it would refuse.
class NoWriter final : public Writer {
 public:
  void begin(const Header&, int) override {}
  std::string stream() override { return ""; }
  void begin_capture(const std::string&, int) override {}
  std::string end_capture(const std::string&) override { return ""; }
  std::string create_graph() override { return ""; }
  std::string clone(const std::string&) override { return ""; }
  void add_child_graph_node(const std::string&, const std::string&) override {}
  std::string host_nodes(const std::string&, int) override { return ""; }
  std::string node(const std::string&, int) override { return ""; }
  std::string instantiate(const std::string&) override { return ""; }
  void upload(const std::string&, const std::string&) override {}
  void launch(const std::string&, const std::string&) override {}
  void synchronize(const std::string&) override {}
  void destroy_exec(const std::string&) override {}
  void destroy_graph(const std::string&) override {}
  void layer_begin_capture(const std::string&, int) override {}
  std::string layer_end_capture(const std::string&) override { return ""; }
  void layer_launch_host_func(const std::string&, int) override {}
  std::string layer_add_host_node(const std::string&, const std::vector<std::string>&, int) override { return ""; }
  void layer_add_stream_callback(const std::string&, int) override {}
  void layer_graph_set_host_node(const std::string&, const std::string&, int) override {}
  void layer_exec_set_host_node(const std::string&, const std::string&, int) override {}
  void launches(std::int64_t) override {}
  void end_launches() override {}
  void expect_calls(int, Expected, const std::string&) override {}
  void expect_order(const std::vector<int>&) override {}
  void expect_callback_arguments(const std::string&) override {}
  std::string finish() override { return ""; }
};

bool has_steps(const std::string& family, const Params& params) {
  NoWriter nothing;
  try {
    write_steps(family, params, Header{}, nothing);
    return true;
  } catch (const UsageError&) {
    return false;
  } catch (const std::out_of_range&) {  // an axis the steps read is missing
    return false;
  }
}

void write_steps(const std::string& family, const Params& params, const Header& header, Writer& out) {
  if (family == "replay") return replay(params, header, out);
  if (family == "stream_callback") return stream_callback(params, header, out);
  if (family == "update") return update(params, header, out);
  if (family == "lifetime") return lifetime(params, header, out);
  throw UsageError("no reproducer steps for the family " + family + " yet; there are for " + families_with_steps());
}

}  // namespace hostcb::repro
