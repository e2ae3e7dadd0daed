// Runs one scenario in this process and judges it: passed, failed, error or skipped.
// Free of I/O: a worker runs scenarios through it and streams the results back, and
// --isolate none calls it directly (the run session, harness/app/run_session.cpp).
#pragma once
#include <vector>

#include "model/environment.hpp"
#include "model/family.hpp"
#include "model/result.hpp"

namespace hostcb {

class Runner {
 public:
  explicit Runner(const Environment& environment) : env_(environment) {}

  // Runs a scenario that planning admitted (model/admission.hpp): this does not ask again.
  Result run(const Scenario& scenario);
  // Why this process's context can run no further scenario, as the last run left it (a
  // sticky error, a capture left open); empty while it can. A worker that reads anything
  // here retires: the next scenario gets a fresh process (runner/worker.cpp).
  const std::string& context_unusable() const { return context_unusable_; }

 private:
  // Makes the device's primary context current once; an empty string when ready.
  std::string prepare_device();

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
