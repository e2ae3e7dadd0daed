// The failure channel: how failures get out of callbacks running on CUDA's driver thread.
//
// Many producers (callback threads, the runner thread) push; the runner drains after
// every scenario. Memory is bounded: the first `capacity` entries are kept, the rest are
// counted, and reports show both. Past the capacity, the first failure of a check no kept
// failure names is still kept (at most kMaxLateChecks of them): a hundred [count] lines
// never hide the one [userdata] line that says what a layer did wrong.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "model/failure.hpp"

namespace hostcb {

struct DrainedFailures {
  std::vector<Failure> kept;
  std::uint64_t dropped = 0;
  std::uint64_t total() const { return kept.size() + dropped; }
};

class FailureChannel {
 public:
  static constexpr std::size_t kMaxLateChecks = 16;
  explicit FailureChannel(std::size_t capacity = 32) : capacity_(capacity) {}
  // Never throws: it runs on callback threads, where an exception would cross a C boundary.
  void push(Failure failure) noexcept;
  DrainedFailures drain();
  std::size_t capacity() const { return capacity_; }

 private:
  std::mutex mutex_;
  bool names_a_new_check(const Failure& failure) const;  // past capacity: kept all the same

  std::vector<Failure> kept_;
  std::uint64_t dropped_ = 0;
  std::size_t late_checks_ = 0;  // kept past the capacity for their check
  std::size_t capacity_;
};

}  // namespace hostcb
