// What a report file says when hostcb is ended before it writes the report, for a cause it
// saw: a second SIGINT or SIGTERM, which ends hostcb at once (exec/interrupt.hpp). The text
// is prepared while the run goes on; the signal handler only opens, writes and renames.
// What no handler sees (SIGKILL, a crash) leaves the marker the run started with, which
// names no cause (reporter.hpp).
#pragma once
#include <string>

namespace hostcb {

// On a second signal, `path` is replaced by `on_sigint` or `on_sigterm`. Arming a path
// again replaces what it had.
void arm_last_words(const std::string& path, std::string on_sigint, std::string on_sigterm);
// The run writes its own report now: a second signal leaves the file as it is.
void disarm_last_words(const std::string& path);
// What the signal handler calls: async-signal-safe (open, write, close, rename, unlink).
void write_last_words(int signo) noexcept;

}  // namespace hostcb
