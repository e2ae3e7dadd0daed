// The layer operations a fuzz program performs, split by where: inside captures the layer
// began itself, and everywhere else. A layer that lacks one is excluded, naming it; one
// that launches host functions only in its own captures is excluded from programs that
// launch them elsewhere (layer_rules.hpp).
#pragma once
#include <vector>

#include "cases/fuzz/program.hpp"
#include "cuda/forwarding.hpp"

namespace hostcb::cases {

struct LayerNeeds {
  std::vector<LayerOp> elsewhere;       // in program order of first use
  std::vector<LayerOp> in_own_capture;  // capture, and launch_host_func if it launches there
};

LayerNeeds layer_needs(const fuzz::Program& program);

}  // namespace hostcb::cases
