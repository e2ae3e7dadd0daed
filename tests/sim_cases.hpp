// The families' own bodies, layers and known-bad controls on the CPU stand-in of CUDA
// (sim_cuda.hpp): sim_replay, sim_update, sim_lifetime, sim_topology, sim_stream_callback,
// sim_stream_host_func and sim_fuzz run the real family's body, checks, exclusions and
// controls with api=sim (fuzz: its programs' own API, replaced), one or two launches
// (fuzz: four seeds), and every built-in and known-bad layer (an adapter's calls would go
// to CUDA: excluded); a combination that needs a kernel the stand-in was not given
// (topology's stamps, the held gate's) is excluded, saying so. sim_fault_status has a stream callback
// wait behind a fault (the stand-in's sticky error), as device_fault does on a GPU. So
// each known-bad layer is seen caught by the check meant for it, on any machine.
#pragma once
#include "model/registry.hpp"

namespace hostcb::stub {

void register_sim_cases(Registry& registry);

}  // namespace hostcb::stub
