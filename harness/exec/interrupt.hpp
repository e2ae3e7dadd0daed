// SIGINT and SIGTERM: remembered, never fatal on the first arrival, so that workers can
// be stopped and every report written with each planned scenario in it. A second signal,
// of either kind, takes its default action at once.
#pragma once

namespace hostcb {

// First thing in main: a signal during planning is then recorded, not fatal. Idempotent.
void install_interrupt_handlers();
// `code`, or 128 + the signal when a command that finished anyway (list, report) had
// been interrupted: the caller still learns that it was.
int exit_code_after_interrupt(int code) noexcept;
int interrupt_signal() noexcept;          // 0 until SIGINT or SIGTERM arrived
int interrupt_fd() noexcept;              // becomes readable once interrupted: poll() on it
void request_interrupt(int signo) noexcept;  // what the handler does; tests call it directly
void clear_interrupt() noexcept;          // tests only

}  // namespace hostcb
