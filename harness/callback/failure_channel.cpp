#include "callback/failure_channel.hpp"

namespace hostcb {

void FailureChannel::push(Failure failure) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (kept_.size() >= capacity_) {
    ++dropped_;
    return;
  }
  try {
    kept_.push_back(std::move(failure));
  } catch (...) {  // out of memory: still counted, never lost silently
    ++dropped_;
  }
}

DrainedFailures FailureChannel::drain() {
  std::lock_guard<std::mutex> lock(mutex_);
  DrainedFailures out;
  out.kept.swap(kept_);
  out.dropped = dropped_;
  dropped_ = 0;
  return out;
}

}  // namespace hostcb
