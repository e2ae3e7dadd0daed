#include "reports/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "model/errors.hpp"

namespace hostcb {

static std::string folder_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Creates a unique temporary file beside `path`; returns its fd and fills `temp_path`.
static int open_temp_beside(const std::string& path, std::string& temp_path) {
  std::string pattern = path + ".tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  temp_path = name.data();
  return fd;
}

void write_file_atomically(const std::string& path, const std::string& content) {
  std::string temp;
  int fd = open_temp_beside(path, temp);
  if (fd < 0) throw std::runtime_error(str("cannot write ", path, ": ", std::strerror(errno)));
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int saved = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      throw std::runtime_error(str("cannot write ", path, ": ", std::strerror(saved)));
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  // mkstemp makes 0600 files; reports are for everyone to read.
  if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0 || ::close(fd) != 0 || std::rename(temp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(temp.c_str());
    throw std::runtime_error(str("cannot write ", path, ": ", std::strerror(saved)));
  }
}

void check_writable(const std::string& path, const std::string& what) {
  if (path.empty()) throw UsageError(str(what, ": empty path"));
  if (path.back() == '/') throw UsageError(str(what, " '", path, "' names a folder, not a file"));
  std::string temp;
  int fd = open_temp_beside(path, temp);
  if (fd < 0)
    throw UsageError(str("cannot write ", what, " '", path, "': ", std::strerror(errno), " (folder '",
                         folder_of(path), "')"));
  ::close(fd);
  ::unlink(temp.c_str());
}

}  // namespace hostcb
