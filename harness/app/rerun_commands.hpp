// The commands a failure names (issue 44): the one that re-runs its scenario alone, and,
// where the family has reproducer steps, the one that writes its reproducer. They travel
// as the result's properties "rerun" and "reproduce", so the console, JUnit and JSON all
// carry them.
#pragma once
#include <string>
#include <vector>

#include "model/result.hpp"

namespace hostcb {

// How the result's run selected it, as the user gave it: what the rerun must repeat.
struct RerunContext {
  std::vector<std::string> adapters;  // --adapter specs
  std::vector<std::string> axes;      // --axis overrides: an id may hold a value only they give
  bool control = false;               // a known-bad control runs only with --controls
};

// Adds both to a failed, errored or xpassed result.
void add_rerun_commands(Result& result, const RerunContext& context);

}  // namespace hostcb
