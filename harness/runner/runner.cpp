#include "runner/runner.hpp"

#include <cuda_runtime_api.h>

#include <chrono>

#include "callback/wait.hpp"
#include "cuda/cuda_check.hpp"
#include "model/errors.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb {

Status judge(bool body_error, bool made_probe, std::size_t failures) {
  if (body_error || (!made_probe && failures == 0)) return Status::error;
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

Result Runner::run(const Scenario& scenario) {
  Result result = result_for(scenario, Status::passed);
  const Family& family = *scenario.family;
  if (family.needs_gpu) {
    std::string problem = prepare_device();
    if (!problem.empty()) {
      result.status = Status::error;
      result.reason = "could not set up the device: " + problem;
      return result;
    }
  }

  // Each scenario starts from a clean last-error state: an earlier one may leave an error
  // on this thread on purpose (capture_contract's 901), which a cudaGetLastError() here
  // would read as its own. Scenarios check their launches by their own return codes
  // (cuda/kernel_launch.hpp); this keeps any reader that remains from seeing the past.
  if (family.needs_gpu) (void)cudaGetLastError();
  auto start = std::chrono::steady_clock::now();
  ActiveScenario active(scenario.id);
  ScenarioActivation activation(active);
  ScenarioRun run(scenario, active, env_.selected_device);
  const Forwarder& layer = run.forward();  // the layer by name: looked up once
  const std::int64_t records_at_start = layer.live_records();
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
  // Late calls count too: the context check waits until every callback the body enqueued
  // has run, before judging. A context left unusable is this scenario's doing: it is told
  // here, and no other scenario runs in it (the worker retires).
  if (family.needs_gpu || run.on_stand_in()) {
    try {
      context_unusable_ = run.context_api().context_problem();
    } catch (const std::exception& e) {  // a harness defect: told, and nothing else runs here
      context_unusable_ = str("the harness could not check the context: ", e.what());
    }
    if (!context_unusable_.empty()) {
      result.properties.push_back({"context_after", context_unusable_});
      if (!family.fresh_process && error.empty())  // a fresh-process family breaks it on purpose
        error = "after the scenario, " + context_unusable_;
    }
  }
  // The layer's records the body left to be freed (graph-owned ones, which CUDA frees on a
  // thread of its own after their graph goes) are freed before the next scenario starts:
  // their frees would land in that one's count of its own records ([records]: on the H200
  // a shuffled order once had a replay scenario see -32). A layer that leaks keeps its
  // leak, which no later count sees move; the wait ends once the count stands still.
  wait_until_settled([&] { return layer.live_records(); }, records_at_start, 0.2, 5.0);
  active.runner_launch = -1;
  if (Probe* probe = run.probe()) {
    for (const auto& problem : probe->verify()) active.channel.push({scenario.id, -1, "runner", "", 0, problem});
    result.properties.push_back({"callback_calls", std::to_string(probe->total_calls())});
    result.properties.push_back({"callback_threads", std::to_string(probe->distinct_threads())});
    result.properties.push_back(
        {"callback_on_launching_thread", probe->any_call_on_thread(active.runner_thread) ? "yes" : "no"});
    // What stream callbacks were handed, as observed: the data a contract is checked against.
    if (probe->stream_callback_calls()) {
      std::string statuses;
      for (int status : probe->callback_statuses()) statuses += (statuses.empty() ? "" : ",") + std::to_string(status);
      result.properties.push_back({"stream_callback_status", statuses});
      result.properties.push_back({"stream_callback_stream", probe->wrong_streams() ? "other" : "enqueued"});
    }
  }
  for (auto& property : run.properties()) result.properties.push_back(property);
  DrainedFailures drained = active.channel.drain();
  result.failures = std::move(drained.kept);
  result.failures_dropped = drained.dropped;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (skipped && result.failures.empty() && !result.failures_dropped) {
    result.status = Status::skipped;
    result.cause = SkipCause::requirement;  // what it needs is not here
    return result;
  }
  result.status = judge(!error.empty(), run.probe() != nullptr, result.failures.size() + result.failures_dropped);
  if (!error.empty())
    result.reason = error;
  else if (result.status == Status::error)
    result.reason = "the scenario made no probe, so it checked no callback: a harness defect";
  return result;
}

}  // namespace hostcb
