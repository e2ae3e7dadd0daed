// When a run stops before its plan is done, decided in one place: --fail-fast and
// --until-fail stop at the first bad result (failed, error, xpass), --maxfail N at the
// N-th, --budget when its time is spent. The supervisor asks `stopping()` before each scenario (from any thread); the
// session shows it each result as it arrives (`saw`: workers side by side finish out of
// order, and the first bad one stops the others at once) and again in plan order
// (`keep`), after expectations both times.
#pragma once
#include <atomic>
#include <chrono>
#include <optional>
#include <string>

#include "model/result.hpp"

namespace hostcb {

class StopPolicy {
 public:
  enum class Rule {
    never,
    fail_fast,   // the rest is skipped, "not run: --fail-fast ..."
    until_fail,  // as fail_fast, and the passes after the failing one are left out
  };
  // fail_fast stops at the `max_failures`-th bad result (--maxfail; -x is 1).
  void set_rule(Rule rule, int max_failures = 1) {
    rule_ = rule;
    max_failures_ = max_failures;
  }
  // --budget: stop starting scenarios once `seconds` have passed since now; scenarios the
  // budget kept from running are left out of the reports, not skipped.
  void stop_after(double seconds);

  bool stopping() const;
  bool spent() const;                // the budget's time has passed
  bool stopped_by_result() const { return stopped_; }
  // The reason a scenario the stop kept from running is skipped with.
  std::string reason() const;
  // Sees a result as soon as it is known, in any order, one at a time.
  void saw(const Result& result);
  // Sees a result, in plan order: false when it is left out of the reports.
  bool keep(const Result& result);

 private:
  Rule rule_ = Rule::never;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  int max_failures_ = 1;
  std::atomic<int> bad_seen_{0};
  std::atomic<bool> stopped_{false};
  bool failed_in_order_ = false;
  int failed_pass_ = 0;  // the pass (Result::iteration) of the first bad result in plan order
};

}  // namespace hostcb
