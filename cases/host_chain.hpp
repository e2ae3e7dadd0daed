// Helpers the families share: a chain of host functions in a graph, built by capture or
// as explicit nodes, and launching an exec while checking the count after every launch.
#pragma once
#include <cstdint>
#include <string>

#include "runner/scenario_run.hpp"

namespace hostcb::cases {

// A graph whose host functions call probe sites first .. first+count-1, one after the
// other, through the scenario's API and forwarding layer. `build` is "node", "capture"
// (global mode), "capture_<mode>" (capture_global, capture_thread_local, capture_relaxed),
// or "capture_by_layer" (global mode, begun and ended by the layer itself).
Graph build_host_chain(ScenarioRun& run, cudaStream_t stream, const std::string& build, std::size_t first,
                       std::size_t count);

// Launches `exec` `launches` times on `stream`, synchronizing after each: every launch
// must add exactly `calls_per_launch` host-function calls to the probe, not only the first.
void launch_and_check(ScenarioRun& run, cudaGraphExec_t exec, cudaStream_t stream, std::int64_t launches,
                      std::uint64_t calls_per_launch);

// A layer that keeps a record per host function must have freed each one by now (CUDA
// frees graph-owned ones on its own thread, so it is allowed 5 s): `after` says after
// what, for the failure's message.
void expect_records_freed(Forwarder& layer, std::int64_t records_before, const char* after);

}  // namespace hostcb::cases
