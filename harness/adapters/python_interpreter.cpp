#include "python_interpreter.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

extern char** environ;

namespace hostcb_python {

namespace {

// Printed after a marker line, one value a line: version, sys.executable, sys.prefix, and
// the shared libpython (INSTSONAME or LDLIBRARY in LIBDIR, its multiarch folder, LIBPL or
// sys.base_prefix/lib), or an empty line where there is none.
constexpr const char* kMarker = "hostcb-python-query-1";
constexpr const char* kQueryBody = R"(import os, sys, sysconfig
v = sysconfig.get_config_var
names = [n for n in (v("INSTSONAME"), v("LDLIBRARY")) if n and ".so" in n]
dirs = [d for d in (v("LIBDIR"), os.path.join(v("LIBDIR") or "", v("MULTIARCH") or ""), v("LIBPL"),
                    os.path.join(sys.base_prefix, "lib")) if d]
found = [os.path.join(d, n) for n in names for d in dirs if os.path.isfile(os.path.join(d, n))]
print(MARKER)
print("%d.%d.%d" % tuple(sys.version_info[:3]))
print(sys.executable)
print(sys.prefix)
print(found[0] if found else "")
)";
constexpr int kQuerySeconds = 30;

// Runs argv with stdout and stderr into one pipe: what it printed, its wait status, or
// false with `why` when it could not be started or ran past the limit (then killed).
bool run_and_read(const std::vector<std::string>& argv, std::string& output, int& status, std::string& why) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    why = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);  // hostcb's workers block some signals
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    why = std::string("cannot run it: ") + std::strerror(rc);
    return false;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kQuerySeconds);
  bool timed_out = false;
  for (char buffer[4096];;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fds[0], POLLIN, 0};
    int ready = left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = true;
      break;
    }
    ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output.append(buffer, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) why = "it did not answer within " + std::to_string(kQuerySeconds) + " s";
  return !timed_out;
}

std::string last_line(const std::string& text) {
  std::string line, last;
  std::stringstream lines(text);
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  return last.empty() ? "it printed nothing" : last;
}

std::string exit_text(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "exit " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

bool ask_interpreter(const std::string& python, Interpreter& out, std::string& why) {
  auto fail = [&](const std::string& text) {
    why = text;
    return false;
  };
  if (access(python.c_str(), X_OK) != 0) return fail(std::strerror(errno));
  std::string query = std::string("MARKER = \"") + kMarker + "\"\n" + kQueryBody;
  std::string output, problem;
  int status = 0;
  if (!run_and_read({python, "-c", query}, output, status, problem)) return fail(problem);
  std::size_t marker = output.find(std::string(kMarker) + "\n");
  if (marker == std::string::npos)
    return fail("not a CPython: hostcb's query got no answer (" + exit_text(status) + ": " + last_line(output) + ")");
  std::stringstream answer(output.substr(marker + std::strlen(kMarker) + 1));
  std::getline(answer, out.version);
  std::getline(answer, out.executable);
  std::getline(answer, out.prefix);
  std::getline(answer, out.library);
  int major = 0, minor = 0;
  if (std::sscanf(out.version.c_str(), "%d.%d", &major, &minor) != 2) return fail("no version in its answer");
  if (major != 3 || minor < kOldestMinor)
    return fail("Python " + out.version + "; the Python adapters need CPython 3." + std::to_string(kOldestMinor) +
                " or newer");
  if (out.library.empty())
    return fail("Python " + out.version + " has no shared libpython (install its shared library, e.g. Debian's "
                "libpython3." + std::to_string(minor) + ", or use a Python built with --enable-shared)");
  return true;
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace hostcb_python
