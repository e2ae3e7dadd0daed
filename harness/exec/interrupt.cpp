#include "exec/interrupt.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <ctime>
#include <mutex>

#include "model/defaults.hpp"
#include "model/stop_signals.hpp"

namespace hostcb {

namespace {
std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};
// Who sent the first signal, and when: what tells a copy of it from the user insisting.
std::atomic<pid_t> g_first_sender{0};
std::atomic<long long> g_first_at_ns{0};
std::atomic<LastWords> g_last_words{nullptr};
constexpr long long kCopyWindowNs = 1'000'000'000;

long long now_ns() noexcept {  // clock_gettime is async-signal-safe
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

// si_code <= 0: sent by a process (kill, sigqueue), which si_pid names.
bool sent_by_a_process(const siginfo_t* info) noexcept { return info && info->si_code <= 0 && info->si_pid > 0; }

bool copy_of_first(int signo, const siginfo_t* info) noexcept {
  return signo == g_signal.load() && sent_by_a_process(info) && info->si_pid == g_first_sender.load() &&
         now_ns() - g_first_at_ns.load() < kCopyWindowNs;
}

void say(const char* text) noexcept {
  std::size_t n = 0;
  while (text[n]) ++n;
  ssize_t ignored = ::write(STDERR_FILENO, text, n);  // async-signal-safe
  (void)ignored;
}

void make_pipe() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;
  });
}

// The first SIGINT, SIGTERM or SIGHUP is remembered; any later one, of any kind, is the user
// insisting (unless it is a copy of the first): the default action, at once (a hang under
// --isolate none never checks).
void on_signal(int signo, siginfo_t* info, void*) {
  if (g_signal.load() != 0) {
    if (copy_of_first(signo, info)) return;
    if (LastWords last_words = g_last_words.load()) last_words(signo);
    say("hostcb: a second signal (");
    say(stop_signal_name(signo));
    say("): ending at once, without writing the reports\n");
    signal(signo, SIG_DFL);  // async-signal-safe, as is raise()
    raise(signo);            // blocked in this handler: delivered, fatally, when it returns
    return;
  }
  // Set before the signal itself: a handler that sees the signal sees who sent it.
  g_first_sender = sent_by_a_process(info) ? info->si_pid : 0;
  g_first_at_ns = now_ns();
  request_interrupt(signo);
}
}  // namespace

void on_second_signal(LastWords last_words) noexcept { g_last_words = last_words; }

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
  action.sa_sigaction = on_signal;
  sigemptyset(&action.sa_mask);
  for (int signo : kStopSignals) sigaddset(&action.sa_mask, signo);  // one handler at a time: the second sees the first
  action.sa_flags = SA_SIGINFO;  // who sent it: a copy of the first is not a second
  for (int signo : kStopSignals) sigaction(signo, &action, nullptr);
  // A launcher that blocked them must not make us deaf: one pending now arrives here.
  sigset_t ours;
  sigemptyset(&ours);
  for (int signo : kStopSignals) sigaddset(&ours, signo);
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
