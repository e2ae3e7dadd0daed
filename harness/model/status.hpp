// The four results, never folded together, why a skipped one was skipped, and how a
// known-bad control must end.
#pragma once
#include <string>
#include <vector>

#include "model/enum_table.hpp"

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
inline constexpr EnumTable<Status, 6> kStatuses{
    "a status", {{{Status::passed, "passed"}, {Status::failed, "failed"}, {Status::error, "error"},
                  {Status::skipped, "skipped"}, {Status::xfail, "xfail"}, {Status::xpass, "xpass"}}}};
inline const char* status_name(Status status) { return kStatuses.name(status); }
// What makes a run red: failed, error, or a listed failure that passed (xpass).
bool is_bad(Status status);

// Why a scenario was skipped, as a value: what decides the verdict and the stop, never
// read back from the reason's text. Results files keep only the reason.
enum class SkipCause {
  none,         // not skipped, or read from a results file
  excluded,     // a combination that cannot exist (family.excluded)
  requirement,  // a runtime, driver, device count or process it needs is not here
  no_device,    // no usable GPU
  interrupted,  // SIGINT, SIGTERM or SIGHUP came first
  not_reached,  // a stop came first: --fail-fast, --until-fail, --budget
};
inline constexpr EnumTable<SkipCause, 6> kSkipCauses{
    "a skip cause", {{{SkipCause::none, "none"}, {SkipCause::excluded, "excluded"}, {SkipCause::requirement, "requirement"},
                      {SkipCause::no_device, "no_device"}, {SkipCause::interrupted, "interrupted"},
                      {SkipCause::not_reached, "not_reached"}}}};

// What a known-bad control must produce for the harness to have caught it: one of the
// statuses, and (when set) a text its reason or failures mention, e.g. "SIGSEGV".
struct ExpectedVerdict {
  std::vector<Status> any_of;
  std::string mentions;
  std::string describe() const;  // "failed", "error mentioning 'timed out'", "failed or error"
};

}  // namespace hostcb
