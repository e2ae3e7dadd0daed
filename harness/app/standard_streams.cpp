#include "app/standard_streams.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "app/cli.hpp"

namespace hostcb {

namespace {
bool g_stdout_was_closed = false;
}  // namespace

void guard_standard_streams() noexcept {
  signal(SIGPIPE, SIG_IGN);
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // A closed stdout becomes /dev/full: a write to it still fails, and is reported as
    // the closed stdout it is; a command that prints nothing there is not failed for it.
    if (fd == 1) g_stdout_was_closed = true;
    int opened = ::open(fd == 1 ? "/dev/full" : "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (opened < 0) opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);  // no /dev/full: fd 1 is still taken
    if (opened >= 0 && opened != fd) ::close(opened);  // the lowest free fd was not this one
  }
}

int finish_stdout(int code) noexcept {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int flush_errno = errno;
  if (flushed && !std::ferror(stdout) && std::cout) return code;
  const int why = g_stdout_was_closed ? EBADF : flush_errno;
  std::cerr << "hostcb: cannot write to stdout" << (why ? std::string(": ") + std::strerror(why) : std::string())
            << "; what it printed is incomplete\n";
  return code == kExitPassed || code == kExitNothingRan ? kExitFailed : code;
}

}  // namespace hostcb
