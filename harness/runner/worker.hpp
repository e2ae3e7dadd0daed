// Worker mode: runs the scenario ids it reads from stdin, in order, in one CUDA context,
// and streams events to the supervisor, one JSON object per line:
//   {"event":"start","index":i}   {"event":"result","index":i,"result":{...}}   {"event":"done"}
// Where it is inside a scenario (launch k of N) goes to the shared progress page instead.
#pragma once
#include "model/registry.hpp"

namespace hostcb {

int worker_main(const Registry& registry, int device, int events_fd, int progress_fd);

}  // namespace hostcb
