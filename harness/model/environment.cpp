#include "model/environment.hpp"

#include "model/errors.hpp"

namespace hostcb {

std::string cuda_version_string(int version) {
  if (version <= 0) return "none";
  return str(version / 1000, ".", (version % 1000) / 10);
}

std::vector<std::pair<std::string, std::string>> environment_properties(const Environment& env) {
  std::vector<std::pair<std::string, std::string>> props = {
      {"hostcb.version", env.hostcb_version},
      {"hostcb.git_revision", env.git_revision},
      {"command_line", env.command_line},
      {"hostname", env.hostname},
      {"os", env.os},
      {"driver.version", env.driver.empty() ? "unknown" : env.driver},
      {"driver.version_source", env.driver_source},
      {"cuda.driver_version", str(env.driver_version, " (", cuda_version_string(env.driver_version), ")")},
      {"cuda.runtime_version", str(env.runtime_version, " (", cuda_version_string(env.runtime_version), ")")},
      {"cuda.toolkit_version", str(env.toolkit_version, " (", cuda_version_string(env.toolkit_version), ")")},
      {"device.selected", env.selected_device == kAllDevices ? "all" : std::to_string(env.selected_device)},
  };
  if (!env.shuffle_seed.empty()) props.push_back({"shuffle_seed", env.shuffle_seed});
  if (env.require_gpu) props.push_back({"require_gpu", "yes"});
  for (const auto& d : env.devices) {
    std::string prefix = str("device.", d.ordinal, ".");
    props.push_back({prefix + "name", d.name});
    props.push_back({prefix + "compute_capability", str(d.cc_major, ".", d.cc_minor)});
    props.push_back({prefix + "uuid", d.uuid});
  }
  for (const auto& a : env.adapters) {
    props.push_back({"adapter." + a.name + ".path", a.path});
    props.push_back({"adapter." + a.name + ".describe", a.describe});
    for (const auto& [package, version] : a.versions) props.push_back({"adapter." + a.name + ".version." + package, version});
  }
  if (!env.gpu_usable) props.push_back({"gpu_unusable_reason", env.gpu_unusable_reason});
  return props;
}

}  // namespace hostcb
