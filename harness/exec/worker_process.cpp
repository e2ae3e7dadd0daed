#include "exec/worker_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "model/errors.hpp"

extern char** environ;

namespace hostcb {

namespace {

// Moves an fd to 10 or above, close-on-exec: then dup2() onto 0..4 in the child always
// makes a fresh, inheritable descriptor (dup2 onto itself would keep close-on-exec).
int high_fd(int fd) {
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  if (moved < 0) throw std::runtime_error(str("fcntl(F_DUPFD_CLOEXEC): ", std::strerror(errno)));
  return moved;
}

void make_pipe(int fds[2]) {
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(str("pipe2: ", std::strerror(errno)));
  fds[0] = high_fd(fds[0]);
  fds[1] = high_fd(fds[1]);
}

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

}  // namespace

std::string describe_exit(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    int signo = WTERMSIG(wait_status);
    return str("killed by signal ", signal_name(signo), " (", signo, ")");
  }
  if (WIFEXITED(wait_status)) return str("exited with code ", WEXITSTATUS(wait_status));
  return str("ended with wait status ", wait_status);
}

WorkerProcess spawn_worker(const std::vector<std::string>& argv, const std::vector<std::string>& ids,
                           int progress_fd) {
  int ids_pipe[2], events_pipe[2], output_pipe[2];
  make_pipe(ids_pipe);
  make_pipe(events_pipe);
  make_pipe(output_pipe);
  int progress = fcntl(progress_fd, F_DUPFD_CLOEXEC, 10);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ids_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, output_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, output_pipe[1], 2);
  posix_spawn_file_actions_adddup2(&actions, events_pipe[1], kWorkerEventsFd);
  posix_spawn_file_actions_adddup2(&actions, progress, kWorkerProgressFd);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setpgroup(&attributes, 0);  // its own group: the terminal's ^C reaches only us
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  for (int fd : {ids_pipe[0], events_pipe[1], output_pipe[1], progress}) ::close(fd);
  if (rc != 0) {
    for (int fd : {ids_pipe[1], events_pipe[0], output_pipe[0]}) ::close(fd);
    throw std::runtime_error(str("cannot start a worker (", argv[0], "): ", std::strerror(rc)));
  }

  // The ids are small (a few KB); a worker that dies early makes this EPIPE, not a crash.
  std::string text;
  for (const auto& id : ids) text += id + "\n";
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(ids_pipe[1], text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(ids_pipe[1]);
  return WorkerProcess{pid, events_pipe[0], output_pipe[0]};
}

}  // namespace hostcb
