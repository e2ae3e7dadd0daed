#include "reports/last_words.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <limits.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "reports/atomic_file.hpp"

namespace hostcb {

namespace {

// A few slots, filled by arm_last_words while not armed and read by the handler only while
// armed; their strings are never freed while hostcb runs, so a handler on another thread
// never reads freed memory.
struct Slot {
  std::atomic<bool> armed{false};
  std::string path, temporary;
  std::array<std::string, kStopSignalCount> by_signal;
  // The report's own temporary file while it is written (last_words_writing), in a buffer
  // the handler may read: set before `writing`, which the handler reads first.
  char report_temporary[PATH_MAX] = {};
  std::atomic<bool> writing{false};
};
constexpr int kSlots = 8;  // a run writes two reports
Slot g_slots[kSlots];
std::mutex g_arming;

bool write_all(int fd, const std::string& text) noexcept {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n <= 0) return false;
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void arm_last_words(const std::string& path, std::array<std::string, kStopSignalCount> by_signal) {
  std::lock_guard<std::mutex> lock(g_arming);
  Slot* free = nullptr;
  for (Slot& slot : g_slots) {
    if (slot.armed && slot.path == path) slot.armed = false;  // re-armed: filled again below
    if (!slot.armed && !free) free = &slot;
  }
  if (!free) return;  // more reports than slots: those keep the marker the run started with
  free->path = path;
  free->temporary = temporary_name_beside(path, ".last-words");
  free->by_signal = std::move(by_signal);
  free->writing = false;
  free->armed = true;
}

void last_words_writing(const std::string& path, const std::string& temporary) {
  std::lock_guard<std::mutex> lock(g_arming);
  for (Slot& slot : g_slots) {
    if (!slot.armed || slot.path != path) continue;
    slot.writing = false;
    if (temporary.empty() || temporary.size() >= sizeof slot.report_temporary) return;
    std::memcpy(slot.report_temporary, temporary.c_str(), temporary.size() + 1);
    slot.writing = true;
  }
}

void disarm_last_words(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_arming);
  for (Slot& slot : g_slots)
    if (slot.armed && slot.path == path) slot.armed = false;
}

void write_last_words(int signo) noexcept {
  const int which = stop_signal_index(signo);
  for (Slot& slot : g_slots) {
    if (!slot.armed || which < 0) continue;
    if (slot.writing) {
      // Its report was being written: half a file is removed; one renamed into place already
      // (its temporary gone) is whole, and stays.
      if (::unlink(slot.report_temporary) != 0 && errno == ENOENT) continue;
    }
    ::unlink(slot.temporary.c_str());
    int fd = ::open(slot.temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) continue;
    const bool written = write_all(fd, slot.by_signal[static_cast<std::size_t>(which)]);
    if (::close(fd) == 0 && written && ::rename(slot.temporary.c_str(), slot.path.c_str()) == 0) continue;
    ::unlink(slot.temporary.c_str());
  }
}

}  // namespace hostcb
