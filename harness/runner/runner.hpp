// Runs one scenario in this process and judges it: passed, failed, error or skipped.
// Free of I/O: a worker runs scenarios through it and streams the results back, and
// --isolate none calls it directly (the run session, harness/app/run_session.cpp).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "model/environment.hpp"
#include "model/family.hpp"
#include "model/result.hpp"

namespace hostcb {

struct ScenarioAttempt;  // one scenario's run in this process (runner.cpp)

class Runner {
 public:
  explicit Runner(const Environment& environment) : env_(environment) {}

  // Runs a scenario that planning admitted (model/admission.hpp): this does not ask again.
  Result run(const Scenario& scenario);
  // Runs scenarios that share one device fault (model/shared_fault.hpp) as one program:
  // each arms in turn, all strike, then each checks and is judged. `on_start(k)` comes
  // before members[k]'s check (the first's before the arming), `on_result(k, ...)` after it.
  void run_sharing_fault(const std::vector<Scenario>& members, const std::function<void(std::size_t)>& on_start,
                         const std::function<void(std::size_t, Result)>& on_result);
  // Why this process's context can run no further scenario, as the last run left it (a
  // sticky error, a capture left open); empty while it can. A worker that reads anything
  // here retires: the next scenario gets a fresh process (runner/worker.cpp).
  const std::string& context_unusable() const { return context_unusable_; }

 private:
  // Makes the device's primary context current once; an empty string when ready.
  std::string prepare_device();
  std::string device_problem(const Scenario& scenario);  // prepare_device's, where it needs one
  // The verdict of a scenario whose code has run, judged while it is active.
  Result conclude(ScenarioAttempt& attempt);

  const Environment& env_;
  bool device_ready_ = false;
  std::string device_error_;
  std::string context_unusable_;
};

// The verdict from what a scenario left behind: an error outranks failures, failures
// outrank a pass; a scenario that checked nothing (no probe, no failure) is an error,
// never a pass. One that failed a check before it made its probe is failed.
Status judge(bool body_error, bool made_probe, std::size_t failures);

}  // namespace hostcb
