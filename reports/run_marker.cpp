#include "reports/run_marker.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <fstream>

#include "model/errors.hpp"

namespace hostcb {

namespace {

constexpr const char* kStillRunning = "has not written its results: it is still running";

// Whether process `pid` runs a hostcb binary (its argv[0]'s name begins "hostcb"): a pid
// a crashed run left in its marker may since belong to something else.
bool runs_hostcb(int pid) {
  if (pid <= 0 || pid == ::getpid()) return false;
  if (::kill(pid, 0) != 0 && errno != EPERM) return false;
  std::ifstream cmdline(str("/proc/", pid, "/cmdline"), std::ios::binary);
  std::string argv0;
  if (!cmdline || !std::getline(cmdline, argv0, '\0')) return false;
  const std::string name = argv0.substr(argv0.rfind('/') == std::string::npos ? 0 : argv0.rfind('/') + 1);
  return name.rfind("hostcb", 0) == 0;
}

}  // namespace

std::string this_host() {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || !name[0]) return "?";
  return name;
}

std::string run_owner(int pid, const std::string& host) { return str("hostcb (pid ", pid, " on ", host, ")"); }

std::string live_writer_of(const std::string& text) {
  const std::size_t owner = text.find("hostcb (pid ");
  if (owner == std::string::npos || text.find(kStillRunning, owner) == std::string::npos) return "";
  int pid = 0;
  if (std::sscanf(text.c_str() + owner, "hostcb (pid %d on ", &pid) != 1) return "";
  const std::string mine = run_owner(pid, this_host());
  if (text.compare(owner, mine.size(), mine) != 0 || !runs_hostcb(pid)) return "";
  return mine;
}

}  // namespace hostcb
