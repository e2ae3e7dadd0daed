#include "app/verdict.hpp"

#include <algorithm>
#include <csignal>

#include "model/defaults.hpp"
#include "model/errors.hpp"
#include "model/stop_signals.hpp"

namespace hostcb {

namespace {

void append(std::string& text, std::size_t n, const char* one, const char* many) {
  if (!n) return;
  text += str(text.empty() ? "" : ", ", n, " ", n == 1 ? one : many);
}

// The reason most scenarios were skipped for: what "nothing ran" means here.
std::string main_skip_reason(const std::vector<Result>& results) {
  std::string best;
  std::size_t most = 0;
  for (const auto& [reason, n] : skip_reasons(results))
    if (n > most) best = reason, most = n;
  return best;
}

}  // namespace

Verdict run_verdict(const RunOutcome& outcome) {
  const Counts counts = count_results(outcome.results);
  if (outcome.interrupt_signal) {
    std::size_t not_run = 0;
    for (const auto& r : outcome.results) not_run += r.cause == SkipCause::interrupted;
    return {exit_code_for_signal(outcome.interrupt_signal),
            str("interrupted by ", stop_signal_name(outcome.interrupt_signal), "; ", not_run,
                " scenario(s) not run")};
  }
  std::string bad;
  append(bad, counts.failed, "failed", "failed");
  append(bad, counts.error, "error", "errors");
  append(bad, counts.xpass, "xpass (a listed failure passed)", "xpass (listed failures passed)");
  append(bad, outcome.reports_lost.size(), "report not written", "reports not written");
  // A job that must run on a GPU and found none is red, not the skip (77) CI reads as green.
  if (outcome.require_gpu)
    if (auto r = std::find_if(outcome.results.begin(), outcome.results.end(),
                              [](const Result& result) { return result.cause == SkipCause::no_device; });
        r != outcome.results.end())
      bad += str(bad.empty() ? "" : ", ", "--require-gpu: ", r->reason);
  if (!bad.empty()) return {kExitFailed, bad};
  // 77 is "every selected scenario was skipped" (CTest's skip): an xfail ran.
  if (counts.passed == 0 && counts.xfail == 0) return {kExitNothingRan, "nothing ran: " + main_skip_reason(outcome.results)};
  std::string good = str(counts.passed, " passed");
  append(good, counts.xfail, "xfail", "xfail");
  append(good, counts.skipped, "skipped", "skipped");
  return {kExitPassed, str("every scenario that ran passed", counts.passed ? "" : " or failed as listed", " (", good, ")")};
}

}  // namespace hostcb
