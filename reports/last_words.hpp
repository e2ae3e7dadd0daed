// What a report file says when hostcb is ended before it has written the report, for a
// cause it saw: a second SIGINT, SIGTERM or SIGHUP, which ends hostcb at once
// (exec/interrupt.hpp). The texts are prepared while the run goes on; the signal handler
// only opens, writes, renames and unlinks. While the report itself is being written, the
// handler also removes its half-written temporary file, and leaves a report already renamed
// into place alone. What no handler sees (SIGKILL, a crash) leaves the marker the run
// started with, which names no cause (reporter.hpp).
#pragma once
#include <array>
#include <string>

#include "model/stop_signals.hpp"

namespace hostcb {

// On a second signal, `path` is replaced by the text for that signal (kStopSignals' order).
// Arming a path again replaces what it had.
void arm_last_words(const std::string& path, std::array<std::string, kStopSignalCount> by_signal);
// The report is being written to `temporary` (a file beside `path`, renamed over it when
// whole): a second signal now removes it before writing the last words, unless it has been
// renamed already (then the report is whole, and stays). "" when that write has failed.
void last_words_writing(const std::string& path, const std::string& temporary);
// The report is written: a second signal leaves the file as it is.
void disarm_last_words(const std::string& path);
// What the signal handler calls: async-signal-safe (open, write, close, rename, unlink).
void write_last_words(int signo) noexcept;

}  // namespace hostcb
