// The commands a failure names (issue 44): the one that re-runs its scenario alone, and,
// where the family has reproducer steps, the one that writes its reproducer. They travel
// as the result's properties "rerun" and "reproduce", so the console, JUnit and JSON all
// carry them.
#pragma once
#include <string>
#include <vector>

#include "model/result.hpp"

namespace hostcb {

// Adds both to a failed, errored or xpassed result; `adapters` are run's --adapter specs
// as the user gave them.
void add_rerun_commands(Result& result, const std::vector<std::string>& adapters);

}  // namespace hostcb
