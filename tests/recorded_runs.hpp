// Results files recorded on the H200 (tests/inputs/layers/): one `hostcb run --json` per
// cuda-bindings version, for the tests of what a night over them reports.
#pragma once
#include <string>

inline std::string recorded_cuda_bindings_run(const std::string& version) {
  return std::string(HOSTCB_INPUTS_DIR) + "/layers/cuda-bindings-" + version + ".json";
}
