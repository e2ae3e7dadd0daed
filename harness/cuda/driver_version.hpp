// The NVIDIA driver's own version string (e.g. "580.159.04"), which cudaDriverGetVersion
// does not give (it says 13000: the CUDA version the driver supports). Nightly reports
// across drivers are keyed on it.
#pragma once
#include <string>

namespace hostcb {

struct DriverVersionString {
  std::string version;  // "580.159.04"; empty when neither source answered
  std::string source;   // "nvml", "/proc/driver/nvidia/version", or why there is none
};

// Asks NVML (libnvidia-ml.so.1, loaded at run time: hostcb never links it), then the
// kernel module's /proc file. Never throws; creates no CUDA context.
DriverVersionString read_driver_version_string();

// The version in the kernel module's /proc text ("NVRM version: NVIDIA UNIX x86_64 Kernel
// Module  580.159.04  Sun ..."); empty when the text has none.
std::string parse_proc_driver_version(const std::string& proc_text);

}  // namespace hostcb
