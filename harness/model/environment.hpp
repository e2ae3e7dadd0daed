// The environment a run happened in, recorded in every report, and whether a GPU is usable.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace hostcb {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  std::string uuid;
};

// A forwarding layer loaded with --adapter.
struct AdapterInfo {
  std::string name;
  std::string path;
  std::string describe;  // what the adapter says it drives, with versions
  // What it drives as name -> version, in the adapter's order, where it knows them
  // ({"cuda-bindings", "13.3.1"}): the matrix keys and labels its columns on these.
  std::vector<std::pair<std::string, std::string>> versions;
};

inline constexpr int kAllDevices = -1;
// The device ordinals a results file may name stay below this (reports/results_file.cpp).
inline constexpr int kMaxDevices = 4096;

struct Environment {
  std::string hostcb_version;
  std::string git_revision;
  std::string command_line;
  std::string hostname;
  std::string os;
  std::string driver;         // the driver's own version string, e.g. "580.159.04" (driver_version.hpp)
  std::string driver_source;  // where that came from: "nvml", the /proc file, or why it is missing
  int driver_version = 0;   // cudaDriverGetVersion, the CUDA version the driver supports: 0 without one
  int runtime_version = 0;  // cudaRuntimeGetVersion (static cudart: the toolkit's)
  int toolkit_version = 0;  // CUDART_VERSION the binary was compiled with
  int selected_device = 0;  // kAllDevices with --device all
  std::vector<DeviceInfo> devices;
  bool gpu_usable = false;
  std::string gpu_unusable_reason;  // the skip reason for every GPU scenario when not usable
  std::vector<AdapterInfo> adapters;
  std::string shuffle_seed;  // run --shuffle's seed (the order can be replayed); empty when not shuffled
  bool require_gpu = false;  // run --require-gpu: without a usable GPU the run was red, not "nothing ran"
};

// Name/value pairs for report headers (JUnit <properties>).
std::vector<std::pair<std::string, std::string>> environment_properties(const Environment& env);

std::string cuda_version_string(int version);  // 13000 -> "13.0"

// The source tree's git revision at build time ("1a2b3c4d5e6f", "-dirty" when edited).
const char* git_revision();
// hostcb's version, PEP 440, naming its commit between releases: "0.1.0.dev57+g1a2b3c4d5e6f"
// (cmake/hostcb_git_revision.cmake says how); the wheel's is the same.
const char* hostcb_version();

}  // namespace hostcb
