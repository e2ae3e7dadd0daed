// A family of scenarios: its axes, which combinations cannot exist, and its body.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "axes.hpp"

namespace hostcb {

class ScenarioRun;

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
  // A known-bad control: a deliberately broken scenario the harness must catch. Controls
  // run only when asked for (--controls) and never in the default matrix.
  bool control = false;
};

// One planned scenario: a family with one value per axis.
struct Scenario {
  std::string id;
  const Family* family = nullptr;
  Params params;
  std::string excluded_reason;  // empty unless the combination cannot exist
};

}  // namespace hostcb
