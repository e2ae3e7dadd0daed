// What every hostcb binary (hostcb, and the tests' hostcb_stub) does around its command
// line, in order: the standard streams guarded, the interrupt handlers installed, the
// command run, an exception turned into one line and exit 1, stdout checked last.
#pragma once
#include "app/cli.hpp"

namespace hostcb {

int hostcb_main(const CaseRegistration& register_cases, int argc, char** argv);

}  // namespace hostcb
