#include "reports/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
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

std::string temporary_name_beside(const std::string& path, const std::string& suffix) {
  const std::size_t keep = NAME_MAX - std::min<std::size_t>(suffix.size(), NAME_MAX);
  const std::size_t slash = path.rfind('/');
  const std::size_t name_start = slash == std::string::npos ? 0 : slash + 1;
  return path.substr(0, name_start + std::min(path.size() - name_start, keep)) + suffix;
}

// Creates a unique temporary file beside `path`; returns its fd and fills `temp_path`.
static int open_temp_beside(const std::string& path, std::string& temp_path) {
  const std::string pattern = temporary_name_beside(path, ".tmp-XXXXXX");
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  temp_path = name.data();
  return fd;
}

void write_file_atomically(const std::string& path, const std::string& content,
                           const std::function<void(const std::string&)>& on_temporary) {
  auto fail = [&](const std::string& why) { return std::runtime_error(str("cannot write ", path, ": ", why)); };
  std::string temp;
  int fd = open_temp_beside(path, temp);
  if (fd < 0) throw fail(std::strerror(errno));
  if (on_temporary) on_temporary(temp);
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int saved = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      throw fail(std::strerror(saved));
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  // mkstemp makes 0600 files; reports are for everyone to read, unless the file being
  // replaced had its own mode (and owner, when we may set it).
  struct stat existing {};
  bool exists = ::lstat(path.c_str(), &existing) == 0;
  mode_t mode = exists && S_ISREG(existing.st_mode) ? existing.st_mode & 07777 : 0644;
  if (exists && S_ISREG(existing.st_mode) && ::fchown(fd, existing.st_uid, existing.st_gid) != 0) {
    // not ours to give away: the report is ours, readable as before
  }
  bool ok = ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
  int saved = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  // Checked again right before the rename: a rename replaces a FIFO, a device node or a
  // symbolic link itself (as root too), never writes into it.
  if (ok && ::lstat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    ::unlink(temp.c_str());
    throw fail(S_ISLNK(existing.st_mode) ? "is a symbolic link; not replaced" : "is not a regular file; not replaced");
  }
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
    if (ok) saved = errno;
    ::unlink(temp.c_str());
    throw fail(std::strerror(saved));
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
