#include "cuda/driver_version.hpp"

#include <dlfcn.h>

#include <fstream>
#include <sstream>

namespace hostcb {

namespace {

// The three NVML entry points needed, by their documented C signatures (nvml.h).
using NvmlInit = int (*)();
using NvmlShutdown = int (*)();
using NvmlGetDriverVersion = int (*)(char* version, unsigned length);
constexpr int kNvmlSuccess = 0;

std::string from_nvml(std::string& why_not) {
  void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml) {
    why_not = "NVML not loadable";
    return "";
  }
  auto init = reinterpret_cast<NvmlInit>(dlsym(nvml, "nvmlInit_v2"));
  auto shutdown = reinterpret_cast<NvmlShutdown>(dlsym(nvml, "nvmlShutdown"));
  auto get = reinterpret_cast<NvmlGetDriverVersion>(dlsym(nvml, "nvmlSystemGetDriverVersion"));
  std::string version;
  if (!init || !shutdown || !get) {
    why_not = "NVML lacks nvmlInit_v2/nvmlSystemGetDriverVersion";
  } else if (int rc = init(); rc != kNvmlSuccess) {
    why_not = "nvmlInit_v2 returned " + std::to_string(rc);
  } else {
    char text[96] = {};
    if (int got = get(text, sizeof text - 1); got == kNvmlSuccess)
      version = text;
    else
      why_not = "nvmlSystemGetDriverVersion returned " + std::to_string(got);
    shutdown();
  }
  dlclose(nvml);
  return version;
}

}  // namespace

std::string parse_proc_driver_version(const std::string& proc_text) {
  const std::string marker = "Kernel Module";
  auto at = proc_text.find(marker);
  if (at == std::string::npos) return "";
  const auto line_end = proc_text.find('\n', at);
  std::istringstream rest(proc_text.substr(at + marker.size(), line_end == std::string::npos ? line_end : line_end - at - marker.size()));
  std::string word;
  while (rest >> word)  // some builds add words ("for x86_64") before the number
    if (word[0] >= '0' && word[0] <= '9' && word.find('.') != std::string::npos) return word;
  return "";
}

DriverVersionString read_driver_version_string() {
  std::string why_not_nvml;
  if (std::string version = from_nvml(why_not_nvml); !version.empty()) return {version, "nvml"};
  const char* proc = "/proc/driver/nvidia/version";
  std::ifstream file(proc);
  if (file) {
    std::stringstream text;
    text << file.rdbuf();
    if (std::string version = parse_proc_driver_version(text.str()); !version.empty()) return {version, proc};
  }
  return {"", "unavailable: " + why_not_nvml + "; no " + proc};
}

}  // namespace hostcb
