// All families, and the plan: which scenarios a selection runs, in a stable order.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/family.hpp"
#include "model/filter.hpp"

namespace hostcb {

// The most scenarios one command plans (--repeat passes included): past it, a usage
// error before anything is expanded (docs/cli.md).
inline constexpr std::uint64_t kMaxPlannedScenarios = 1'000'000;

struct Selection {
  std::string filter = "*";
  std::vector<AxisOverride> overrides;
  bool include_controls = false;  // known-bad controls are never in the default matrix
  bool only_controls = false;     // self-test: the controls and nothing else
  bool allow_empty = false;       // run --allow-empty: a pattern may match nothing, the plan be empty
  // Asked now and then while planning: true stops it with PlanningInterrupted (a ^C).
  std::function<bool()> interrupted;
};

// Planning stopped by Selection::interrupted.
class PlanningInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Registry {
 public:
  // Throws std::logic_error on a malformed family (bad names, duplicates, no body).
  void add(Family family);
  const std::vector<Family>& families() const { return families_; }

  // The scenarios a selection names, in registration then axis order. Throws UsageError
  // on an unknown axis, a bad value, a filter pattern that matches nothing, or more than
  // kMaxPlannedScenarios selected (counted before any is made).
  std::vector<Scenario> plan(const Selection& selection) const;

  // The scenario an id names, axis overrides included (a worker gets ids, not options).
  // Throws UsageError for an unknown family, a wrong axis or a bad value.
  Scenario resolve(const std::string& id) const;

 private:
  Scenario make_scenario(const Family& family, Params params) const;
  std::vector<Family> families_;
};

}  // namespace hostcb
