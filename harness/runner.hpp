// Runs planned scenarios one at a time in this process and judges each: passed, failed,
// error or skipped. Kept free of I/O so that a worker process can run the same list and
// stream the results back.
#pragma once
#include <functional>
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
  // Runs every scenario in order; `on_result` sees each result as it is made.
  std::vector<Result> run_all(const std::vector<Scenario>& plan,
                              const std::function<void(const Result&, std::size_t index)>& on_result);

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

// The verdict from what a scenario left behind: an error outranks failures, failures
// outrank a pass; a scenario that checked nothing is an error, never a pass.
Status judge(bool body_error, bool made_probe, std::size_t failures);

}  // namespace hostcb
