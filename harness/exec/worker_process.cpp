#include "exec/worker_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "model/errors.hpp"
#include "protocol/worker_protocol.hpp"

namespace hostcb {

namespace {

// Moves an fd to 10 or above, close-on-exec: then dup2() onto 0..5 in the child always
// makes a fresh, inheritable descriptor (dup2 onto itself would keep close-on-exec).
int high_fd(int fd) {
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  if (moved < 0) throw std::runtime_error(str("fcntl(F_DUPFD_CLOEXEC): ", std::strerror(errno)));
  return moved;
}

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(str("pipe2: ", std::strerror(errno)));
    read = high_fd(fds[0]);
    write = high_fd(fds[1]);
  }
};

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

const char* signal_name(int signo) {
  switch (signo) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGTRAP: return "SIGTRAP";
    case SIGPIPE: return "SIGPIPE";
    default: return "signal";
  }
}

// The child between fork and exec: only async-signal-safe calls. The death signal comes
// first, so a supervisor that dies from here on takes the worker with it, whatever the
// worker then does (an adapter's init that hangs, a static initialiser).
[[noreturn]] void become_worker(pid_t supervisor, char* const* argv, const int (&fds)[6], int exec_error) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != supervisor) _exit(127);  // it died before the line above
  setpgid(0, 0);  // its own group: the terminal's ^C reaches only us, and we kill the group
  struct sigaction defaults {};
  defaults.sa_handler = SIG_DFL;
  for (int signo : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) sigaction(signo, &defaults, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int target = 0; target < 6; ++target)
    if (dup2(fds[target], target) < 0) _exit(127);
  execv(argv[0], argv);
  int error = errno;
  ssize_t ignored = ::write(exec_error, &error, sizeof error);
  (void)ignored;
  _exit(127);
}

}  // namespace

std::string describe_exit(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    int signo = WTERMSIG(wait_status);
    return str("killed by signal ", signal_name(signo), " (", signo, ")");
  }
  if (WIFEXITED(wait_status)) return str("exited with code ", WEXITSTATUS(wait_status));
  return str("ended with wait status ", wait_status);
}

WorkerProcess spawn_worker(const std::vector<std::string>& argv, int progress_fd) {
  Pipe commands, events, output, exec_error;
  int null = high_fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  int progress = fcntl(progress_fd, F_DUPFD_CLOEXEC, 10);
  int fds[6] = {null, output.write, output.write, events.write, progress, commands.read};
  static_assert(protocol::kEventsFd == 3 && protocol::kProgressFd == 4 && protocol::kCommandsFd == 5,
                "fds[] lists the worker's descriptors in order");

  std::vector<char*> args;  // made before fork: the child may not allocate
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t supervisor = getpid();
  pid_t pid = fork();
  if (pid == 0) become_worker(supervisor, args.data(), fds, exec_error.write);
  const int fork_error = errno;
  for (int fd : {null, progress, output.write, events.write, commands.read, exec_error.write}) ::close(fd);
  auto give_up = [&](int error) {
    for (int fd : {commands.write, events.read, output.read}) ::close(fd);
    return std::runtime_error(str("cannot start a worker (", argv[0], "): ", std::strerror(error)));
  };
  if (pid < 0) {
    ::close(exec_error.read);
    throw give_up(fork_error);
  }
  setpgid(pid, pid);  // as the child does: whichever runs first, the group exists before we signal it

  // exec closes the error pipe (close-on-exec); a failed exec writes its errno there first.
  int error = 0;
  ssize_t got;
  while ((got = ::read(exec_error.read, &error, sizeof error)) < 0 && errno == EINTR) {
  }
  ::close(exec_error.read);
  if (got == static_cast<ssize_t>(sizeof error)) {
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    throw give_up(error);
  }
  for (int fd : {commands.write, events.read, output.read}) set_nonblocking(fd);
  return WorkerProcess{pid, commands.write, events.read, output.read};
}

bool worker_has_exited(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

int reap_worker(WorkerProcess& worker) {
  kill(-worker.pid, SIGKILL);  // the worker is gone or killed; what it started goes too
  int status = 0;
  while (waitpid(worker.pid, &status, 0) < 0 && errno == EINTR) {
  }
  for (int* fd : {&worker.commands_fd, &worker.events_fd, &worker.output_fd})
    if (*fd >= 0) ::close(std::exchange(*fd, -1));
  return status;
}

}  // namespace hostcb
