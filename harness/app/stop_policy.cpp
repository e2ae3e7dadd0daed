#include "app/stop_policy.hpp"

#include "model/errors.hpp"

namespace hostcb {

void StopPolicy::stop_after(double seconds) {
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

bool StopPolicy::spent() const { return deadline_ && std::chrono::steady_clock::now() >= *deadline_; }

bool StopPolicy::stopping() const { return (rule_ != Rule::never && stopped_) || spent(); }

std::string StopPolicy::reason() const {
  if (deadline_) return "not run: --budget spent";
  // "When N had come in", not "after N": workers side by side may finish more beside the
  // N-th, and those results are kept as they are.
  if (max_failures_ > 1)
    return str("not run: --maxfail ", max_failures_, " stopped the run when ", max_failures_, " failures had come in");
  return std::string("not run: ") + (rule_ == Rule::until_fail ? "--until-fail" : "--fail-fast") +
         " stopped the run at the first failure";
}

void StopPolicy::saw(const Result& result) {
  if (is_bad(result.status) && ++bad_seen_ >= max_failures_) stopped_ = true;
}

bool StopPolicy::keep(const Result& result) {
  if (deadline_ && result.cause == SkipCause::not_reached) return false;  // the budget ran out first
  if (!failed_in_order_ && is_bad(result.status)) {
    failed_pass_ = result.iteration;
    failed_in_order_ = true;
  }
  return !(rule_ == Rule::until_fail && failed_in_order_ && result.iteration > failed_pass_);  // a pass that never began
}

}  // namespace hostcb
