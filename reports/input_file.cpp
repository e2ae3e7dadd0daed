#include "reports/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "model/errors.hpp"

namespace hostcb {

std::string read_input_file(const std::string& path, const std::string& what, std::size_t max_bytes) {
  if (path.empty()) throw UsageError(str("the ", what, " path is empty"));
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO must not block us
  if (fd < 0) throw UsageError(str(path, ": cannot read the ", what, ": ", std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(str(path, S_ISDIR(st.st_mode) ? ": is a directory, not the " : ": is not a regular file: not the ",
                         what));
  }
  if (static_cast<std::size_t>(st.st_size) > max_bytes) {
    ::close(fd);
    throw UsageError(str(path, ": ", st.st_size, " bytes; more than the ", max_bytes, " bytes ", what, "s may have"));
  }
  std::string text;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int saved = errno;
      ::close(fd);
      throw UsageError(str(path, ": cannot read the ", what, ": ", std::strerror(saved)));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {
      ::close(fd);
      throw UsageError(str(path, ": more than the ", max_bytes, " bytes ", what, "s may have"));
    }
  }
  ::close(fd);
  return text;
}

}  // namespace hostcb
