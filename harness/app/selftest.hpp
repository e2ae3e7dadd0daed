// The self-test: every known-bad control must end the way it declares (failed, or error
// with the right cause). A control that passes means the harness can no longer fail.
#pragma once
#include <string>
#include <vector>

#include "model/family.hpp"
#include "model/result.hpp"

namespace hostcb {

struct ControlOutcome {
  std::string id;
  std::string expected;  // ExpectedVerdict::describe()
  std::string observed;  // status, and the first line of what it said
  bool caught = false;
  bool skipped = false;  // could not run here (a requirement unmet): neither caught nor escaped
};

// Whether `result` is the verdict `expected` asks for.
bool verdict_matches(const Result& result, const ExpectedVerdict& expected);

std::vector<ControlOutcome> judge_controls(const std::vector<Scenario>& plan, const std::vector<Result>& results);

// The table the CLI prints: control, expected verdict, observed verdict, caught.
std::string controls_table(const std::vector<ControlOutcome>& outcomes);

}  // namespace hostcb
