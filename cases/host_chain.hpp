// Helpers the families share: how a graph is built (the `build` axis), a chain of host
// functions in a graph, and launching an exec while checking the count after every launch.
#pragma once
#include <cstdint>
#include <string>

#include "runner/scenario_run.hpp"

namespace hostcb::cases {

// How a graph is built, from a `build` value: "node" (explicit host nodes through the
// layer's add_host_node), "capture" (CUDA's capture in `default_mode`), "capture_<mode>"
// (capture_global, capture_thread_local, capture_relaxed), or "capture_by_layer" (a
// capture begun and ended by the layer's own API, in `default_mode`).
struct GraphBuild {
  enum class Kind { node, capture, capture_by_layer };
  Kind kind = Kind::node;
  CaptureMode mode = CaptureMode::global;
};
GraphBuild parse_build(const std::string& build, CaptureMode default_mode = CaptureMode::global);

// Captures what `enqueue` puts on `stream` (and on side streams it joins back) into a
// graph, by CUDA's capture or by the layer's, as `build` says (never Kind::node).
template <class Enqueue>
Graph capture_for_build(ScenarioRun& run, cudaStream_t stream, const GraphBuild& build, Enqueue&& enqueue) {
  if (build.kind == GraphBuild::Kind::capture_by_layer)
    return capture_graph_by_layer(run.forward(), run.api(), stream, build.mode, enqueue);
  return capture_graph(run.api(), stream, build.mode, enqueue);
}

// A graph whose host functions call probe sites first .. first+count-1, one after the
// other, through the scenario's API and forwarding layer, built as `build` says.
Graph build_host_chain(ScenarioRun& run, cudaStream_t stream, const std::string& build, std::size_t first,
                       std::size_t count, CaptureMode default_mode = CaptureMode::global);

// Launches `exec` `launches` times on `stream`, synchronizing after each: every launch
// must add exactly `calls_per_launch` host-function calls to the probe, not only the first.
void launch_and_check(ScenarioRun& run, cudaGraphExec_t exec, cudaStream_t stream, std::int64_t launches,
                      std::uint64_t calls_per_launch);

// A layer that keeps a record per host function must have freed each one by now (CUDA
// frees graph-owned ones on its own thread, so it is allowed 5 s): `after` says after
// what, for the failure's message.
void expect_records_freed(Forwarder& layer, std::int64_t records_before, const char* after);

}  // namespace hostcb::cases
