// Reading the environment a run happens in from CUDA, the driver and the host.
#pragma once
#include <string>

#include "model/environment.hpp"

namespace hostcb {

// Queries CUDA without creating a context. Never throws for a missing driver or device:
// that is recorded as gpu_unusable_reason.
Environment capture_environment(int device, std::string command_line);

// Only the driver's version string and the CUDA versions of the driver, runtime and toolkit,
// without looking at any device (what list --expectations decides entries on). A failed
// query is said in `problem` (when given), never thrown.
Environment capture_versions(std::string* problem = nullptr);

}  // namespace hostcb
