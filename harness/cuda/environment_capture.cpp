#include "cuda/environment_capture.hpp"

#include <cuda_runtime_api.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>

#include "cuda/cuda_check.hpp"
#include "cuda/driver_version.hpp"
#include "model/errors.hpp"

namespace hostcb {

static std::string format_uuid(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char text[64];
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
}

Environment capture_versions(std::string* problem) {
  Environment env;
  env.toolkit_version = CUDART_VERSION;
  DriverVersionString driver = read_driver_version_string();
  env.driver = driver.version;
  env.driver_source = driver.source;
  // Without a driver these succeed and report 0; a failure is recorded, never fatal here.
  std::string version_problem;
  if (cudaError_t rc = cudaDriverGetVersion(&env.driver_version); rc != cudaSuccess)
    version_problem = str("cudaDriverGetVersion returned ", runtime_error_name(rc), "; ");
  if (cudaError_t rc = cudaRuntimeGetVersion(&env.runtime_version); rc != cudaSuccess)
    version_problem += str("cudaRuntimeGetVersion returned ", runtime_error_name(rc), "; ");
  if (problem) *problem = version_problem;
  return env;
}

Environment capture_environment(int device, std::string command_line) {
  std::string version_problem;
  Environment env = capture_versions(&version_problem);
  env.hostcb_version = hostcb_version();
  env.git_revision = git_revision();
  env.command_line = std::move(command_line);
  env.selected_device = device;
  char host[256] = {};
  env.hostname = gethostname(host, sizeof host - 1) == 0 ? host : "unknown";
  struct utsname uts {};
  env.os = uname(&uts) == 0 ? str(uts.sysname, " ", uts.release, " ", uts.machine) : "unknown";

  int count = 0;
  cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) {
    env.gpu_unusable_reason = str("no usable CUDA device: cudaGetDeviceCount returned ", runtime_error_name(rc), " (",
                                  static_cast<int>(rc), "), driver version ", env.driver_version);
    (void)cudaGetLastError();  // clears the (non-sticky) error just reported; its value is that error
    return env;
  }
  if (count == 0) {
    env.gpu_unusable_reason = "no usable CUDA device: cudaGetDeviceCount found none";
    return env;
  }
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaError_t prop_rc = cudaGetDeviceProperties(&prop, d); prop_rc != cudaSuccess) {
      env.devices.push_back({d, str("unknown (cudaGetDeviceProperties: ", runtime_error_name(prop_rc), ")"), 0, 0, ""});
      continue;
    }
    env.devices.push_back({d, prop.name, prop.major, prop.minor, format_uuid(prop.uuid)});
  }
  if (!version_problem.empty()) {
    env.gpu_unusable_reason = "no usable CUDA device: " + version_problem;
    return env;
  }
  if (device < 0 || device >= count) {
    env.gpu_unusable_reason = str("no usable CUDA device: --device ", device, " asked for, but only ", count,
                                  " device(s) are visible");
    return env;
  }
  env.gpu_usable = true;
  return env;
}

}  // namespace hostcb
