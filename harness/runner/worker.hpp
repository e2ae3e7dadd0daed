// Worker mode: runs the scenarios its supervisor sends, one at a time, in one CUDA context,
// and reports on each through the worker protocol (protocol/worker_protocol.hpp). Where it
// is inside a scenario (launch k of N) goes to the shared progress page instead.
#pragma once
#include "model/registry.hpp"

namespace hostcb {

int worker_main(const Registry& registry, int device);

}  // namespace hostcb
