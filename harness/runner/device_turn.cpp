#include "runner/device_turn.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace hostcb {

namespace {

// Opens (making it, readable by every user) a lock file; -1 when it cannot.
int open_lock(const std::string& path) {
  return ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
}

void lock(int fd, int how) {
  while (::flock(fd, how) != 0 && errno == EINTR) {
  }
}

// A UUID as the environment writes it ("GPU-xxxxxxxx-..."), kept to what a file name may hold.
std::string file_safe(const std::string& text) {
  std::string out;
  for (char c : text) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return out;
}

}  // namespace

std::string DeviceTurn::stem(const Scenario& scenario, const Environment& env) {
  const char* dir = std::getenv("HOSTCB_LOCK_DIR");
  const std::string folder = dir && *dir ? dir : "/tmp";
  if (!scenario.family->needs_gpu) return dir && *dir ? folder + "/hostcb-turn-cpu-stand-in" : "";
  for (const auto& device : env.devices)
    if (device.ordinal == env.selected_device && !device.uuid.empty())
      return folder + "/hostcb-turn-" + file_safe(device.uuid);
  return "";  // no device known: nothing to share
}

DeviceTurn::DeviceTurn(const Scenario& scenario, const Environment& env) {
  const std::string base = stem(scenario, env);
  if (base.empty()) return;
  turnstile_ = open_lock(base + ".turnstile");
  turn_ = open_lock(base + ".turn");
  if (turnstile_ < 0 || turn_ < 0) return;  // the destructor closes what opened
  if (runs_alone(scenario)) {
    lock(turnstile_, LOCK_EX);  // held until the end: shared takers queue behind it
    lock(turn_, LOCK_EX);       // every shared turn in flight has ended
  } else {
    lock(turnstile_, LOCK_SH);  // waits while an exclusive taker waits or runs
    lock(turn_, LOCK_SH);
    lock(turnstile_, LOCK_UN);
  }
}

DeviceTurn::~DeviceTurn() {
  if (turn_ >= 0) ::close(turn_);  // closing lets go of its lock
  if (turnstile_ >= 0) ::close(turnstile_);
}

}  // namespace hostcb
