#include "exec/interrupt.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

#include "model/defaults.hpp"

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

// The first SIGINT or SIGTERM is remembered; any later one, of either kind, is the user
// insisting: the default action, at once (a hang under --isolate none never checks).
void on_signal(int signo) {
  if (g_signal.load() != 0) {
    signal(signo, SIG_DFL);  // async-signal-safe, as is raise()
    raise(signo);            // blocked in this handler: delivered, fatally, when it returns
    return;
  }
  request_interrupt(signo);
}
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
  sigaddset(&action.sa_mask, SIGINT);  // one handler at a time: the second signal sees the first
  sigaddset(&action.sa_mask, SIGTERM);
  action.sa_flags = 0;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // A launcher that blocked them must not make us deaf: one pending now arrives here.
  sigset_t ours;
  sigemptyset(&ours);
  sigaddset(&ours, SIGINT);
  sigaddset(&ours, SIGTERM);
  sigprocmask(SIG_UNBLOCK, &ours, nullptr);
}

int exit_code_after_interrupt(int code) noexcept {
  int signo = interrupt_signal();
  return signo != 0 && code == 0 ? exit_code_for_signal(signo) : code;
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
