// A family of scenarios: its axes, which combinations cannot exist, and its body.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/axes.hpp"
#include "model/shared_fault.hpp"
#include "model/status.hpp"

namespace hostcb {

class ScenarioRun;

// What a scenario needs beyond a usable GPU. Below it, the scenario is skipped with the
// reason ("needs ..."), never failed and never left out of the list.
struct Requirements {
  int min_runtime = 0;  // CUDA runtime and toolkit built with (the older of the two), e.g. 12040 for 12.4
  int min_driver = 0;   // what the driver supports (cudaDriverGetVersion), e.g. 12040
  int min_devices = 1;  // visible CUDA devices
};

struct Family {
  std::string name;
  std::string summary;  // one line, shown by `hostcb list --format json` and in docs
  std::vector<Axis> axes;
  // A reason when a combination of axis values cannot exist; it is then listed and
  // reported as skipped ("excluded: ...") rather than renamed away.
  std::function<std::optional<std::string>(const Params&)> excluded;
  // Builds the CUDA work, launches it and states what it expected. Never prints or exits.
  std::function<void(ScenarioRun&)> body;
  bool needs_gpu = true;
  // Known-bad controls: combinations that are broken on purpose, with the verdict the
  // harness must reach on them. Controls run only when asked for (--controls, self-test),
  // never in the default matrix. Unset, or nullopt for a combination: an ordinary scenario.
  std::function<std::optional<ExpectedVerdict>(const Params&)> control;
  // Combinations that exist only as known-bad controls, with why (a known-bad layer where
  // no check is meant to catch it): one that `control` gives no verdict is no scenario at
  // all, planned, listed and resolved nowhere. Unset: every combination is a scenario.
  std::function<std::optional<std::string>(const Params&)> only_as_control;
  // The scenario breaks the CUDA context on purpose (sticky device errors): it always gets
  // a fresh worker process, and the context's sticky error after the body is not held
  // against it.
  bool fresh_process = false;
  // A fresh-process family may let scenarios share one fault (model/shared_fault.hpp):
  // set `shared_fault` and make `body` body_alone(shared_fault.arm).
  SharedFault shared_fault;
  // A combination's own time limit in seconds; unset or 0 takes the run's (--timeout).
  // Keep it for scenarios that must time out quickly (a hang control): a tight limit on
  // ordinary ones turns a loaded machine's slow CUDA start into a false error.
  std::function<double(const Params&)> timeout;
  // Versions and devices a combination needs; unset: none beyond a GPU.
  std::function<Requirements(const Params&)> requirements;
};

// One planned scenario: a family with one value per axis.
struct Scenario {
  std::string id;
  const Family* family = nullptr;
  Params params;
  std::string excluded_reason;  // empty unless the combination cannot exist
  std::optional<ExpectedVerdict> control;  // set for a known-bad control
  Requirements requirements;
  double timeout_s = 0;  // its own time limit; 0 takes the run's
};

// Whether a scenario must have its device to itself: a family that breaks its CUDA
// context on purpose (fresh_process) does. Measured on the H200 (docs/cuda-facts.md):
// device faults in several processes at once lose a kernel in flight in another context
// now and then, and they serialize on the GPU anyway. The supervisor runs it with no
// worker beside it; its worker takes an exclusive turn on the GPU (runner/device_turn.hpp).
inline bool runs_alone(const Scenario& scenario) { return scenario.family->fresh_process; }

// The key under which `scenario` may share its fault with others of its family; "" for
// none (model/shared_fault.hpp).
inline std::string fault_sharing_key(const Scenario& scenario) {
  const SharedFault& shared = scenario.family->shared_fault;
  if (!shared.arm || !shared.key) return "";
  return scenario.family->name + "/" + shared.key(scenario.params);
}

}  // namespace hostcb
