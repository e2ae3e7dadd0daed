// stdout is output like any report: a write that fails (a full disk, /dev/full, a closed
// stdout) fails the command, with one line on stderr, instead of an empty file and exit 0.
#pragma once

namespace hostcb {

// First thing in main, before any file or pipe is opened: a closed stdin, stdout or
// stderr is opened on /dev/null, so that a report's temporary file or a worker's pipe can
// never become fd 1 and receive the console. A closed stdout is remembered as a failed
// write: finish_stdout() reports it. SIGPIPE is ignored, so that a reader that went away
// (`hostcb list | head -1`) is a failed write that finish_stdout() reports, as for `run`,
// not a silent death (workers get the default back: exec/worker_process.cpp).
void guard_standard_streams() noexcept;

// Last thing in main: flushes std::cout and C's stdout (the console's spdlog sink writes
// there) and checks that every write reached it. Returns `code`, or 1 with one line on
// stderr ("hostcb: cannot write to stdout: No space left on device") when one did not
// and `code` would have said success (0) or nothing ran (77).
int finish_stdout(int code) noexcept;

}  // namespace hostcb
