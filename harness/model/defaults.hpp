// The defaults hostcb's rules rest on, each named once: exit codes (README.md, docs/cli.md
// and every --help list them) and time limits.
#pragma once

namespace hostcb {

inline constexpr int kExitPassed = 0;       // every scenario that ran passed (and at least one ran)
inline constexpr int kExitFailed = 1;       // a scenario failed or errored, or a report could not be written
inline constexpr int kExitUsage = 2;        // bad command line, unknown axis/value, filter matching nothing
inline constexpr int kExitNothingRan = 77;  // every selected scenario was skipped, e.g. no usable GPU

// A command ended by SIGINT or SIGTERM (after writing its reports): 130 or 143, as a shell
// reports a process the signal killed.
constexpr int exit_code_for_signal(int signo) { return 128 + signo; }

// Seconds a scenario may take from its start, unless its family sets its own (--timeout).
inline constexpr double kDefaultTimeoutSeconds = 120;
// Seconds a worker may take to reach a scenario's start: loading the adapters, creating
// its CUDA context. An adapter's check in a test process (cuda/adapter_loader.hpp) gets as
// long, since it loads and initialises the same way.
inline constexpr double kWorkerStartupSeconds = 60;

}  // namespace hostcb
