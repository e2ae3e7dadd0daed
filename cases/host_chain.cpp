#include "cases/host_chain.hpp"

#include <stdexcept>

#include "callback/wait.hpp"
#include "model/errors.hpp"

namespace hostcb::cases {

GraphBuild parse_build(const std::string& build, CaptureMode default_mode) {
  if (build == "node") return {GraphBuild::Kind::node, default_mode};
  if (build == "capture") return {GraphBuild::Kind::capture, default_mode};
  if (build == "capture_by_layer") return {GraphBuild::Kind::capture_by_layer, default_mode};
  const std::string prefix = "capture_";
  if (build.rfind(prefix, 0) != 0) throw std::invalid_argument("unknown build '" + build + "'");
  return {GraphBuild::Kind::capture, parse_capture_mode(build.substr(prefix.size()))};
}

Graph build_host_chain(ScenarioRun& run, cudaStream_t stream, const std::string& build, std::size_t first,
                       std::size_t count, CaptureMode default_mode) {
  const GraphApi& api = run.api();
  Forwarder& forward = run.forward();
  Probe& probe = *run.probe();
  const GraphBuild how = parse_build(build, default_mode);
  if (how.kind == GraphBuild::Kind::node) {
    Graph graph = api.create_graph();
    std::vector<cudaGraphNode_t> previous;
    for (std::size_t i = first; i < first + count; ++i)
      previous = {forward.add_host_node(api, graph.get(), previous, Probe::host_fn(), probe.user_data(i))};
    return graph;
  }
  return capture_for_build(run, stream, how, [&] {
    for (std::size_t i = first; i < first + count; ++i)
      forward.launch_host_func(api, stream, Probe::host_fn(), probe.user_data(i));
  });
}

void launch_and_check(ScenarioRun& run, cudaGraphExec_t exec, cudaStream_t stream, std::int64_t launches,
                      std::uint64_t calls_per_launch) {
  const GraphApi& api = run.api();
  Probe& probe = *run.probe();
  api.synchronize(stream);
  const std::uint64_t before = probe.total_calls();
  for (std::int64_t launch = 1; launch <= launches; ++launch) {
    run.set_launch(launch, launches);
    api.launch(exec, stream);
    api.synchronize(stream);
    const std::uint64_t want = before + calls_per_launch * static_cast<std::uint64_t>(launch);
    HOSTCB_EXPECT(probe.total_calls() == want, str("[count] after launch ", launch, " of ", launches, " the host functions had been called ",
                                                   probe.total_calls() - before, " times; expected ", want - before));
  }
}

void expect_records_freed(Forwarder& layer, std::int64_t records_before, const char* after) {
  wait_until([&] { return layer.live_records() <= records_before; }, 5.0);
  HOSTCB_EXPECT(layer.live_records() == records_before,
                str("[records] ", layer.live_records() - records_before, " record(s) of the ", layer.name(), " layer were not freed 5 s ",
                    after));
}

}  // namespace hostcb::cases
