// One worker's life under the supervisor: start it on the scenarios left in a batch, pump
// its events and output, enforce the time limits, and when it dies put the blame on the
// scenario in hand. supervisor.cpp starts sessions until the batch is done.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "callback/progress.hpp"
#include "exec/output_tail.hpp"
#include "exec/supervisor.hpp"
#include "exec/worker_process.hpp"
#include "model/family.hpp"
#include "model/result.hpp"

namespace hostcb {

// "interrupted by SIGINT" or "... SIGTERM": the reason of a scenario an interrupt stopped.
std::string interrupted_reason();
// An interrupt, or the caller asking to stop (--fail-fast): no new scenario starts.
bool stopping(const ExecutionOptions& options);
// A scenario that a stop kept from running or finishing: skipped, with why.
Result stopped_result(const Scenario& scenario, const ExecutionOptions& options, double seconds = 0);

class WorkerSession {
 public:
  // Results are handed to `on_result` with the scenario's index in `scenarios`.
  using Deliver = std::function<void(std::size_t, Result)>;

  WorkerSession(std::vector<const Scenario*> scenarios, const ExecutionOptions& options, SharedProgress& progress);
  WorkerSession(const WorkerSession&) = delete;
  WorkerSession& operator=(const WorkerSession&) = delete;

  // Runs until the worker is gone. Every scenario before the returned count has a result;
  // fewer than all only when the worker could not start (each left one is an error) or an
  // interrupt came (a started scenario is skipped with the time it ran).
  std::size_t run(const Deliver& on_result);

 private:
  using Clock = std::chrono::steady_clock;
  void pump();                           // one poll round
  void handle_event(const std::string& line);
  void kill_worker(std::string why);
  void drain_output();                   // after a kill: what the worker wrote before it
  Result blame(int wait_status);           // the result of the scenario it died in
  double limit() const;

  std::vector<const Scenario*> scenarios_;
  const ExecutionOptions& options_;
  SharedProgress& progress_;
  Deliver deliver_;
  WorkerProcess worker_;
  std::size_t pos_ = 0;  // the first scenario without a result
  bool started_ = false, events_open_ = true, output_open_ = true, killed_ = false, interrupted_ = false;
  std::string cause_, events_;
  Clock::time_point since_;
  OutputTail tail_;
};

}  // namespace hostcb
