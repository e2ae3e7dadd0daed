// Where the running scenario is: which one, which launch of how many, how many host
// functions have been called (a launch is enqueued long before its callbacks run).
//
// In a worker this cell lives in a shared-memory page the supervisor also maps, so when
// the worker crashes or hangs the supervisor still knows the exact launch it reached,
// at no cost per launch (no write to a pipe on the launch path).
#pragma once
#include <atomic>
#include <cstdint>

namespace hostcb {

struct ProgressCell {
  std::atomic<std::int64_t> scenario{-1};  // index in the worker's list
  std::atomic<std::int64_t> launch{-1};    // 1-based; -1 before the first launch
  std::atomic<std::int64_t> launches{0};   // how many the scenario will make; 0 unknown
  std::atomic<std::int64_t> calls{0};      // host-function calls the probe has counted so far
  void reset(std::int64_t scenario_index) noexcept;
};
static_assert(std::atomic<std::int64_t>::is_always_lock_free, "the cell is shared between processes");

// The cell scenarios report to: process-local unless a worker mapped a shared one.
ProgressCell& progress_cell() noexcept;
// Worker side: use the supervisor's page behind `fd`. Throws std::runtime_error.
void map_shared_progress(int fd);

// Supervisor side: one shared page, handed to each worker it starts.
class SharedProgress {
 public:
  SharedProgress();  // throws std::runtime_error
  ~SharedProgress();
  SharedProgress(const SharedProgress&) = delete;
  SharedProgress& operator=(const SharedProgress&) = delete;
  int fd() const { return fd_; }
  ProgressCell& cell() { return *cell_; }

 private:
  int fd_ = -1;
  ProgressCell* cell_ = nullptr;
};

}  // namespace hostcb
