#include "callback/progress.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace hostcb {

namespace {
ProgressCell g_local_cell;
std::atomic<ProgressCell*> g_cell{&g_local_cell};

ProgressCell* map_cell(int fd) {
  void* page = mmap(nullptr, sizeof(ProgressCell), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (page == MAP_FAILED) throw std::runtime_error(std::string("mmap of the progress page: ") + std::strerror(errno));
  return static_cast<ProgressCell*>(page);
}
}  // namespace

void ProgressCell::reset(std::int64_t scenario_index) noexcept {
  launch.store(-1, std::memory_order_relaxed);
  launches.store(0, std::memory_order_relaxed);
  calls.store(0, std::memory_order_relaxed);
  scenario.store(scenario_index, std::memory_order_release);
}

ProgressCell& progress_cell() noexcept { return *g_cell.load(std::memory_order_acquire); }

void map_shared_progress(int fd) { g_cell.store(map_cell(fd), std::memory_order_release); }

SharedProgress::SharedProgress() {
  fd_ = memfd_create("hostcb-progress", MFD_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  if (ftruncate(fd_, sizeof(ProgressCell)) != 0) {
    ::close(fd_);
    throw std::runtime_error(std::string("ftruncate of the progress page: ") + std::strerror(errno));
  }
  cell_ = new (map_cell(fd_)) ProgressCell();
}

SharedProgress::~SharedProgress() {
  if (cell_) munmap(cell_, sizeof(ProgressCell));
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace hostcb
