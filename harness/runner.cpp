#include "runner.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>

#include "cuda_check.hpp"
#include "errors.hpp"
#include "scenario_run.hpp"

namespace hostcb {

Status judge(bool body_error, bool made_probe, std::size_t failures) {
  if (body_error || !made_probe) return Status::error;
  return failures ? Status::failed : Status::passed;
}

std::string Runner::prepare_device() {
  if (device_ready_) return device_error_;
  device_ready_ = true;
  try {
    HOSTCB_CUDA(cudaSetDevice(env_.selected_device));
    HOSTCB_CUDA(cudaFree(nullptr));  // create the primary context now, not inside the first scenario
  } catch (const CudaError& e) {
    device_error_ = e.what();
  }
  return device_error_;
}

std::string unmet_requirement(const Requirements& needs, const Environment& env) {
  // The code for a newer API is compiled only when the toolkit has it, and a shared
  // cudart may be newer than the toolkit: the older of the two decides.
  const int runtime = std::min(env.runtime_version, env.toolkit_version);
  if (runtime < needs.min_runtime)
    return str("needs CUDA runtime ", cuda_version_string(needs.min_runtime), " or newer; this binary's is ",
               cuda_version_string(runtime),
               env.toolkit_version < env.runtime_version ? " (the toolkit it was built with)" : "");
  if (!env.gpu_usable) return "";  // the GPU reason below says more than a version would
  if (env.driver_version < needs.min_driver)
    return str("needs a driver supporting CUDA ", cuda_version_string(needs.min_driver), " or newer; this one supports ",
               cuda_version_string(env.driver_version));
  if (static_cast<int>(env.devices.size()) < needs.min_devices)
    return str("needs ", needs.min_devices, " CUDA devices; ", env.devices.size(), " visible");
  return "";
}

std::optional<Result> result_without_running(const Scenario& scenario, const Environment& env) {
  std::string reason;
  if (!scenario.excluded_reason.empty())
    reason = "excluded: " + scenario.excluded_reason;
  else if (std::string unmet = unmet_requirement(scenario.requirements, env); !unmet.empty())
    reason = unmet;
  else if (scenario.family->needs_gpu && !env.gpu_usable)
    reason = env.gpu_unusable_reason;
  else
    return std::nullopt;
  Result result;
  result.id = scenario.id;
  result.family = scenario.family->name;
  result.params = scenario.params;
  result.status = Status::skipped;
  result.reason = reason;
  return result;
}

Result Runner::run(const Scenario& scenario) {
  if (auto decided = result_without_running(scenario, env_)) return *decided;
  Result result;
  result.id = scenario.id;
  result.family = scenario.family->name;
  result.params = scenario.params;
  const Family& family = *scenario.family;
  if (family.needs_gpu) {
    std::string problem = prepare_device();
    if (!problem.empty()) {
      result.status = Status::error;
      result.reason = "could not set up the device: " + problem;
      return result;
    }
  }

  auto start = std::chrono::steady_clock::now();
  ActiveScenario active(scenario.id);
  ScenarioActivation activation(active);
  ScenarioRun run(scenario, active, env_.selected_device);
  std::string error;
  bool skipped = false;
  try {
    family.body(run);
  } catch (const SkipScenario& e) {
    skipped = true;
    result.reason = e.what();
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "the scenario body threw something that is not a std::exception";
  }
  // Late calls count too: let every callback the body enqueued finish before judging.
  if (family.needs_gpu) {
    cudaError_t idle = cudaDeviceSynchronize();
    std::string why = str(runtime_error_name(idle), " (", static_cast<int>(idle), ")");
    if (idle != cudaSuccess && family.fresh_process)
      result.properties.push_back({"context_error_after", why});  // broken on purpose; own process
    else if (idle != cudaSuccess && error.empty())
      error = "cudaDeviceSynchronize() after the scenario failed: " + why;
  }
  active.runner_launch = -1;
  if (Probe* probe = run.probe()) {
    for (const auto& problem : probe->verify()) active.channel.push({scenario.id, -1, "runner", "", 0, problem});
    result.properties.push_back({"callback_calls", std::to_string(probe->total_calls())});
    result.properties.push_back({"callback_threads", std::to_string(probe->distinct_threads())});
    result.properties.push_back(
        {"callback_on_launching_thread", probe->any_call_on_thread(active.runner_thread) ? "yes" : "no"});
  }
  for (auto& property : run.properties()) result.properties.push_back(property);
  DrainedFailures drained = active.channel.drain();
  result.failures = std::move(drained.kept);
  result.failures_dropped = drained.dropped;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (skipped && result.failures.empty() && !result.failures_dropped) return result;
  result.status = judge(!error.empty(), run.probe() != nullptr, result.failures.size() + result.failures_dropped);
  if (!error.empty())
    result.reason = error;
  else if (!run.probe())
    result.reason = "the scenario made no probe, so it checked no callback: a harness defect";
  return result;
}

}  // namespace hostcb
