// Runs one scenario in this process and judges it: passed, failed, error or skipped.
// Free of I/O: a worker runs scenarios through it and streams the results back, and
// --isolate none calls it directly (execution.cpp).
#pragma once
#include <optional>
#include <vector>

#include "environment.hpp"
#include "family.hpp"
#include "result.hpp"

namespace hostcb {

class Runner {
 public:
  explicit Runner(const Environment& environment) : env_(environment) {}

  Result run(const Scenario& scenario);

 private:
  // Makes the device's primary context current once; an empty string when ready.
  std::string prepare_device();

  const Environment& env_;
  bool device_ready_ = false;
  std::string device_error_;
};

// The result of a scenario that is decided without running it (excluded, or needs a GPU
// that is not there); nullopt when it must run.
std::optional<Result> result_without_running(const Scenario& scenario, const Environment& env);

// Why `env` falls short of `needs` ("needs CUDA runtime 12.4 or newer; ..."); empty if it
// does not. Driver and device needs are judged only where a GPU is usable.
std::string unmet_requirement(const Requirements& needs, const Environment& env);

// The verdict from what a scenario left behind: an error outranks failures, failures
// outrank a pass; a scenario that checked nothing is an error, never a pass.
Status judge(bool body_error, bool made_probe, std::size_t failures);

}  // namespace hostcb
