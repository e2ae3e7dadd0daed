// SIGINT, SIGTERM and SIGHUP (model/stop_signals.hpp): remembered, never fatal on the first
// arrival, so that workers can be stopped and every report written with each planned
// scenario in it. A second signal, of any kind, takes its default action at once, saying so
// on stderr, after the last
// words (below). A copy of the first is no second signal: the same signal from the same
// process within a second (timeout(1), and CI runners, signal the child and then its whole
// process group, so hostcb gets it twice). A signal the kernel sends (^C on a terminal)
// never counts as a copy: each keypress is the user's.
#pragma once

namespace hostcb {

// What a second signal does before it ends hostcb: async-signal-safe, given the signal
// (reports/last_words.hpp replaces each report with one saying so). None by default.
using LastWords = void (*)(int signo) noexcept;
void on_second_signal(LastWords last_words) noexcept;

// First thing in main: a signal during planning is then recorded, not fatal. Idempotent.
void install_interrupt_handlers();
// `code`, or 128 + the signal when a command that finished anyway (list, report) had
// been interrupted: the caller still learns that it was.
int exit_code_after_interrupt(int code) noexcept;
int interrupt_signal() noexcept;          // 0 until SIGINT, SIGTERM or SIGHUP arrived
int interrupt_fd() noexcept;              // becomes readable once interrupted: poll() on it
void request_interrupt(int signo) noexcept;  // what the handler does; tests call it directly
void clear_interrupt() noexcept;          // tests only

}  // namespace hostcb
