#include "runner/device_turn.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "model/errors.hpp"

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

// $HOSTCB_LOCK_DIR, else /tmp; and how to name it in a message.
std::string lock_folder() {
  const char* dir = std::getenv("HOSTCB_LOCK_DIR");
  return dir && *dir ? dir : "/tmp";
}
std::string named_folder() {
  const char* dir = std::getenv("HOSTCB_LOCK_DIR");
  return dir && *dir ? "HOSTCB_LOCK_DIR=" + std::string(dir) : "/tmp (HOSTCB_LOCK_DIR unset)";
}

}  // namespace

std::string DeviceTurn::folder_problem() {
  struct stat info {};
  const std::string folder = lock_folder();
  if (::stat(folder.c_str(), &info) != 0)
    return str(named_folder(), ": the folder for the GPU's lock files: ", std::strerror(errno));
  if (!S_ISDIR(info.st_mode)) return str(named_folder(), ": the folder for the GPU's lock files is not a folder");
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return str(named_folder(), ": cannot make the GPU's lock files there: ", std::strerror(errno));
  return "";
}

std::string DeviceTurn::stem(const Scenario& scenario, const Environment& env) {
  const char* dir = std::getenv("HOSTCB_LOCK_DIR");
  const std::string folder = lock_folder();
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
  if (turnstile_ < 0 || turn_ < 0) {
    const int error = errno;
    for (int fd : {turnstile_, turn_})
      if (fd >= 0) ::close(fd);  // a constructor that throws has no destructor run
    throw std::runtime_error(str("could not take its turn on the GPU: cannot open ", base,
                                 turnstile_ < 0 ? ".turnstile" : ".turn", " (", named_folder(), "): ", std::strerror(error)));
  }
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
