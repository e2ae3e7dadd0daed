// The command line: parses the arguments and runs one subcommand (app/*_command.cpp).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "model/registry.hpp"

namespace hostcb {

// Exit codes (documented in README.md and --help).
inline constexpr int kExitPassed = 0;      // every scenario that ran passed (and at least one ran)
inline constexpr int kExitFailed = 1;      // a scenario failed or errored, or a report could not be written
inline constexpr int kExitUsage = 2;       // bad command line, unknown axis/value, filter matching nothing
inline constexpr int kExitNothingRan = 77; // every selected scenario was skipped, e.g. no usable GPU

// Parses `args` (args[0] is the program name) and does what they say. The families are
// registered by `register_cases` after any --adapter is loaded, so that the adapters'
// names are values of the families' `forward` axes.
using CaseRegistration = std::function<void(Registry&)>;
int run_cli(const CaseRegistration& register_cases, const std::vector<std::string>& args);

}  // namespace hostcb
