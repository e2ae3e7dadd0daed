#include "model/admission.hpp"

#include <algorithm>

#include "model/errors.hpp"

namespace hostcb {

std::string unmet_requirement(const Requirements& needs, const Environment& env) {
  // The code for a newer API is compiled only when the toolkit has it, and a shared
  // cudart may be newer than the toolkit: the older of the two decides.
  const int runtime = std::min(env.runtime_version, env.toolkit_version);
  if (runtime < needs.min_runtime)
    return str("needs CUDA runtime ", cuda_version_string(needs.min_runtime), " or newer; this binary's is ",
               cuda_version_string(runtime),
               env.toolkit_version < env.runtime_version ? " (the toolkit it was built with)" : "");
  if (!env.gpu_usable) return "";  // the GPU reason below says more than a version would
  if (env.driver_version < needs.min_driver)
    return str("needs a driver supporting CUDA ", cuda_version_string(needs.min_driver), " or newer; this one supports ",
               cuda_version_string(env.driver_version));
  if (static_cast<int>(env.devices.size()) < needs.min_devices)
    return str("needs ", needs.min_devices, " CUDA devices; ", env.devices.size(), " visible");
  return "";
}

std::optional<Skip> why_skipped(const Scenario& scenario, const Environment& env) {
  if (!scenario.excluded_reason.empty()) return Skip{SkipCause::excluded, "excluded: " + scenario.excluded_reason};
  if (std::string unmet = unmet_requirement(scenario.requirements, env); !unmet.empty())
    return Skip{SkipCause::requirement, unmet};
  if (scenario.family->needs_gpu && !env.gpu_usable) return Skip{SkipCause::no_device, env.gpu_unusable_reason};
  return std::nullopt;
}

}  // namespace hostcb
