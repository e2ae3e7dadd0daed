#include "callback/failure_channel.hpp"

namespace hostcb {

bool FailureChannel::names_a_new_check(const Failure& failure) const {
  if (late_checks_ >= kMaxLateChecks) return false;
  const std::string tag = leading_check_tag(failure.message);
  if (tag.empty()) return false;
  for (const auto& kept : kept_)
    if (leading_check_tag(kept.message) == tag) return false;
  return true;
}

void FailureChannel::push(Failure failure) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    if (kept_.size() >= capacity_) {
      if (!names_a_new_check(failure)) {
        ++dropped_;
        return;
      }
      ++late_checks_;
    }
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
  late_checks_ = 0;
  return out;
}

}  // namespace hostcb
