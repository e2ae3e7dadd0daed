#include "runner/runner.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <memory>

#include "callback/kept.hpp"
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

using Clock = std::chrono::steady_clock;

// One scenario's run in this process, from its start to its result. The runner makes it
// active (ScenarioActivation) around each part that runs on its thread.
struct ScenarioAttempt {
  ScenarioAttempt(const Scenario& s, int device)
      : scenario(s), active(s.id), run(s, active, device), layer(run.forward()), records_at_start(layer.live_records()) {}
  ~ScenarioAttempt() { active.probe.store(nullptr, std::memory_order_release); }  // no callback reaches a probe that is gone
  ScenarioAttempt(const ScenarioAttempt&) = delete;
  ScenarioAttempt& operator=(const ScenarioAttempt&) = delete;

  // Runs a part of the scenario's own code (its body, or a half of it), keeping what it threw.
  template <class Part>
  void guarded(Part&& part) {
    if (!error.empty() || skipped) return;  // an earlier part ended it
    try {
      part();
    } catch (const SkipScenario& e) {
      skipped = true;
      skip_reason = e.what();
    } catch (const std::exception& e) {
      error = e.what();
    } catch (...) {
      error = "the scenario body threw something that is not a std::exception";
    }
  }

  const Scenario& scenario;
  ActiveScenario active;
  ScenarioRun run;
  const Forwarder& layer;  // the layer by name: looked up once
  const std::int64_t records_at_start;
  Clock::time_point start = Clock::now();  // a shared fault's later ones: from their check
  std::string error, skip_reason;
  bool skipped = false;
};

namespace {

// Each scenario starts from a clean last-error state: an earlier one may leave an error
// on this thread on purpose (capture_contract's 901), which a cudaGetLastError() here
// would read as its own. Scenarios check their launches by their own return codes
// (cuda/kernel_launch.hpp); this keeps any reader that remains from seeing the past.
void forget_last_error(const Family& family) {
  if (family.needs_gpu) (void)cudaGetLastError();
}

}  // namespace

std::string Runner::device_problem(const Scenario& scenario) {
  return scenario.family->needs_gpu ? prepare_device() : std::string();
}

Result Runner::run(const Scenario& scenario) {
  if (std::string problem = device_problem(scenario); !problem.empty())
    return result_for(scenario, Status::error, "could not set up the device: " + problem);
  forget_last_error(*scenario.family);
  ScenarioAttempt attempt(scenario, env_.selected_device);
  ScenarioActivation activation(attempt.active);
  attempt.guarded([&] { scenario.family->body(attempt.run); });
  return conclude(attempt);
}

void Runner::run_sharing_fault(const std::vector<Scenario>& members, const std::function<void(std::size_t)>& on_start,
                               const std::function<void(std::size_t, Result)>& on_result) {
  if (members.empty()) return;
  if (std::string problem = device_problem(members.front()); !problem.empty()) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      on_start(k);
      on_result(k, result_for(members[k], Status::error, "could not set up the device: " + problem));
    }
    return;
  }
  // Kept for the process (callback/kept.hpp): a broken layer's callback may come after the
  // last result, through the set armed together, to a probe and its scenario. The worker
  // retires after this program, its context broken, so nothing piles up.
  auto& attempts = keep_for_process<std::vector<std::unique_ptr<ScenarioAttempt>>>();
  std::vector<ActiveScenario*> actives;
  for (const Scenario& member : members) {
    attempts.push_back(std::make_unique<ScenarioAttempt>(member, env_.selected_device));
    actives.push_back(&attempts.back()->active);
  }
  // Every probe is reachable from the moment it exists until the last check is judged: a
  // stream callback of one scenario comes while another is being checked.
  ArmedTogether together(actives);
  std::vector<std::unique_ptr<ArmedFault>> armed(members.size());
  on_start(0);  // the first one's clock covers the arming and the fault they all share
  for (std::size_t k = 0; k < members.size(); ++k) {
    ScenarioAttempt& a = *attempts[k];
    forget_last_error(*a.scenario.family);
    ScenarioActivation activation(a.active);
    a.guarded([&] { armed[k] = a.scenario.family->shared_fault.arm(a.run); });
  }
  for (std::size_t k = 0; k < members.size(); ++k) {
    if (!armed[k]) continue;
    ScenarioAttempt& a = *attempts[k];
    ScenarioActivation activation(a.active);
    a.guarded([&] { armed[k]->strike(); });
  }
  for (std::size_t k = 0; k < members.size(); ++k) {
    ScenarioAttempt& a = *attempts[k];
    if (k > 0) {
      on_start(k);
      a.start = Clock::now();
    }
    Result result;
    {
      ScenarioActivation activation(a.active);
      if (armed[k]) a.guarded([&] { armed[k]->check(); });
      result = conclude(a);
      a.active.judged = true;  // a later call to its sites is its orphan
    }
    on_result(k, std::move(result));
  }
  armed.clear();  // what the scenarios hold: their probes, which a late call may still find, stay
}

Result Runner::conclude(ScenarioAttempt& a) {
  const Family& family = *a.scenario.family;
  ScenarioRun& run = a.run;
  ActiveScenario& active = a.active;
  Result result = result_for(a.scenario, Status::passed);
  std::string& error = a.error;
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
  // leak, which no later count sees move; the wait ends once the count stands still. A
  // fresh-process family has no next scenario to protect.
  if (!family.fresh_process)
    wait_until_settled([&] { return a.layer.live_records(); }, a.records_at_start, 0.2, 5.0);
  active.runner_launch = -1;
  if (Probe* probe = run.probe()) {
    for (const auto& problem : probe->verify()) active.channel.push({a.scenario.id, -1, "runner", "", 0, problem});
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
  result.seconds = std::chrono::duration<double>(Clock::now() - a.start).count();

  if (a.skipped && result.failures.empty() && !result.failures_dropped) {
    result.reason = a.skip_reason;
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
