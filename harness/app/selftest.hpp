// The self-test: every known-bad control must end the way it declares (failed, or error
// with the right cause). A control that passes means the harness can no longer fail.
#pragma once
#include <string>
#include <vector>

#include "model/family.hpp"
#include "model/result.hpp"

namespace hostcb {

// The default self-test's controls: of those with one family, one layer (`forward`) and
// one expected verdict (the check that must catch them), the first in plan order. So each
// check is shown failing once in each family it serves, for each bug class a known-bad
// layer carries; `self-test --full` runs every control.
std::vector<Scenario> one_control_per_check(const std::vector<Scenario>& controls);

struct ControlOutcome {
  std::string id;
  std::string expected;  // ExpectedVerdict::describe()
  std::string observed;  // status, and the first line of what it said
  std::vector<std::string> checks;  // which checks caught it (checks_that_caught)
  bool caught = false;
  bool skipped = false;  // could not run here (a requirement unmet): neither caught nor escaped
};

// Whether `result` is the verdict `expected` asks for.
bool verdict_matches(const Result& result, const ExpectedVerdict& expected);

// The checks that spoke in `result`: the tag each failure message carries ("[count]",
// "[stream]", ...: docs/scenarios.md), each once, in the order they first appear, then
// "error" when the scenario ended in an error (a crash, a timeout, a CUDA error).
std::vector<std::string> checks_that_caught(const Result& result);

std::vector<ControlOutcome> judge_controls(const std::vector<Scenario>& plan, const std::vector<Result>& results);

// The table the CLI prints: control, expected verdict, caught, by which checks, observed verdict.
std::string controls_table(const std::vector<ControlOutcome>& outcomes);
// How many caught controls each check spoke in, in the order the checks first appear:
// "caught by: [count] 12, [stream] 4, error 3".
std::string checks_summary(const std::vector<ControlOutcome>& outcomes);

}  // namespace hostcb
