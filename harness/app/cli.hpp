// The command line: parses the arguments and runs one subcommand (app/*_command.cpp).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "model/defaults.hpp"  // the exit codes
#include "model/registry.hpp"

namespace hostcb {


// Parses `args` (args[0] is the program name) and does what they say. The families are
// registered by `register_cases` after any --adapter is loaded, so that the adapters'
// names are values of the families' `forward` axes.
using CaseRegistration = std::function<void(Registry&)>;
int run_cli(const CaseRegistration& register_cases, const std::vector<std::string>& args);

}  // namespace hostcb
