// All families, and the plan: which scenarios a selection runs, in a stable order.
#pragma once
#include <string>
#include <vector>

#include "family.hpp"
#include "filter.hpp"

namespace hostcb {

struct Selection {
  std::string filter = "*";
  std::vector<AxisOverride> overrides;
  bool include_controls = false;  // known-bad controls are never in the default matrix
};

class Registry {
 public:
  // Throws std::logic_error on a malformed family (bad names, duplicates, no body).
  void add(Family family);
  const std::vector<Family>& families() const { return families_; }

  // The scenarios a selection names, in registration then axis order. Throws UsageError
  // on an unknown axis, a bad value, or a filter pattern that matches nothing.
  std::vector<Scenario> plan(const Selection& selection) const;

 private:
  std::vector<Family> families_;
};

}  // namespace hostcb
