// SIGINT and SIGTERM: remembered, never fatal on the first arrival, so that workers can
// be stopped and every report written with each planned scenario in it. A second signal
// of the same kind takes its default action (the handler resets itself).
#pragma once

namespace hostcb {

void install_interrupt_handlers();
int interrupt_signal() noexcept;          // 0 until SIGINT or SIGTERM arrived
int interrupt_fd() noexcept;              // becomes readable once interrupted: poll() on it
void request_interrupt(int signo) noexcept;  // what the handler does; tests call it directly
void clear_interrupt() noexcept;          // tests only

}  // namespace hostcb
