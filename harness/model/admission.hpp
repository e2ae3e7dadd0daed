// Admission: whether a planned scenario may run here, decided once, before anything
// runs. A scenario that may not is skipped with the reason, never failed.
#pragma once
#include <optional>
#include <string>

#include "model/environment.hpp"
#include "model/family.hpp"
#include "model/status.hpp"

namespace hostcb {

// Why `env` falls short of `needs` ("needs CUDA runtime 12.4 or newer; ..."); empty if it
// does not. Driver and device needs are judged only where a GPU is usable.
std::string unmet_requirement(const Requirements& needs, const Environment& env);

struct Skip {
  SkipCause cause;
  std::string reason;
};
// Why a scenario is skipped without running ("excluded: ...", an unmet need, or why no GPU
// is usable); nullopt when it must run.
std::optional<Skip> why_skipped(const Scenario& scenario, const Environment& env);

}  // namespace hostcb
