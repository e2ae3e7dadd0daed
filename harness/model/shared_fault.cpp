#include "model/shared_fault.hpp"

#include <utility>

namespace hostcb {

std::function<void(ScenarioRun&)> body_alone(std::function<std::unique_ptr<ArmedFault>(ScenarioRun&)> arm) {
  return [arm = std::move(arm)](ScenarioRun& run) {
    std::unique_ptr<ArmedFault> armed = arm(run);
    armed->strike();
    armed->check();
  };
}

}  // namespace hostcb
