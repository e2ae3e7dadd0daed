#include "python_program.hpp"

#include <Python.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace hostcb_python {

namespace {

constexpr int kAnswerMs = 10000;  // a cold interpreter on a loaded machine, with margin

// What `python -c` prints on stdout within kAnswerMs ("3.12"), "" when nothing.
std::string version_of(const std::string& python, std::string& why) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    why = std::string("cannot make a pipe: ") + std::strerror(errno);
    return "";
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  const char* argv[] = {python.c_str(), "-I", "-c",
                        "import sys; sys.stdout.write('%d.%d' % sys.version_info[:2])", nullptr};
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, python.c_str(), &actions, nullptr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(out[0]);
    why = std::string("cannot be run: ") + std::strerror(spawned);
    return "";
  }
  std::string answer;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kAnswerMs);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{out[0], POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) == 0) {
      why = "did not answer within 10 s";
      ::kill(pid, SIGKILL);
      answer.clear();
      break;
    }
    char buffer[64];
    const ssize_t n = ::read(out[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || answer.size() > 64) break;
    answer.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return answer;
}

}  // namespace

bool check_python_program(const std::string& python, std::string& why) {
  const std::string prefix = "python=" + python + ": ";
  struct stat st {};
  if (::stat(python.c_str(), &st) != 0) {
    why = prefix + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode) || ::access(python.c_str(), X_OK) != 0) {
    why = prefix + "is not an executable file";
    return false;
  }
  const std::string embedded = std::to_string(PY_MAJOR_VERSION) + "." + std::to_string(PY_MINOR_VERSION);
  std::string problem;
  const std::string version = version_of(python, problem);
  if (version.empty()) {
    why = prefix + "is not a Python interpreter: " + (problem.empty() ? "asked its version, it printed nothing" : problem);
    return false;
  }
  if (version != embedded) {
    why = prefix + "is Python " + version.substr(0, 16) + "; this adapter embeds Python " + embedded +
          ": give a python" + embedded + " or a venv made with one";
    return false;
  }
  return true;
}

}  // namespace hostcb_python
