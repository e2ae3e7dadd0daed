// The four results, never folded together, and how a known-bad control must end.
#pragma once
#include <string>
#include <vector>

namespace hostcb {

enum class Status {
  passed,   // every expectation held
  failed,   // an expectation did not hold (wrong count, a failure from a callback, ...)
  error,    // the scenario could not run: a CUDA call failed, a crash, a timeout
  skipped,  // not run, with the reason: no device, excluded combination, interrupted, ...
  // Set only by an expectations file (expectations.hpp), after the run:
  xfail,  // failed or error as a known, listed behaviour: not held against the run
  xpass,  // listed as failing, but passed: the bug may be fixed; counts as a failure
};
const char* status_name(Status status);
// What makes a run red: failed, error, or a listed failure that passed (xpass).
bool is_bad(Status status);

// What a known-bad control must produce for the harness to have caught it: one of the
// statuses, and (when set) a text its reason or failures mention, e.g. "SIGSEGV".
struct ExpectedVerdict {
  std::vector<Status> any_of;
  std::string mentions;
  std::string describe() const;  // "failed", "error mentioning 'timed out'", "failed or error"
};

}  // namespace hostcb
