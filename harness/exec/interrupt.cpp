#include "exec/interrupt.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

namespace hostcb {

namespace {
std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};

void make_pipe() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;
  });
}

void on_signal(int signo) { request_interrupt(signo); }
}  // namespace

void request_interrupt(int signo) noexcept {
  int none = 0;
  g_signal.compare_exchange_strong(none, signo);
  if (g_pipe[1] >= 0) {
    char byte = 1;
    ssize_t ignored = ::write(g_pipe[1], &byte, 1);  // async-signal-safe; a full pipe is fine
    (void)ignored;
  }
}

void install_interrupt_handlers() {
  make_pipe();
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // the second SIGINT is the user insisting: default action
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a worker that died leaves a broken pipe: an error, not our death
}

int interrupt_signal() noexcept { return g_signal.load(); }

int interrupt_fd() noexcept {
  make_pipe();
  return g_pipe[0];
}

void clear_interrupt() noexcept {
  g_signal = 0;
  char buffer[64];
  while (g_pipe[0] >= 0 && ::read(g_pipe[0], buffer, sizeof buffer) > 0) {
  }
}

}  // namespace hostcb
