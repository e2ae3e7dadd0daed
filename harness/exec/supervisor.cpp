#include "exec/supervisor.hpp"

#include <signal.h>

#include "exec/collector.hpp"
#include "exec/interrupt.hpp"
#include "exec/worker_pool.hpp"
#include "exec/worker_session.hpp"
#include "model/admission.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

// --isolate worker and scenario: stretches of jobs that may run side by side go to the
// pool; a job that must have the device to itself (runs_alone) waits for the stretch
// before it, runs in a worker of its own with nothing beside it, and the next stretch
// starts after it. Plan order is kept between stretches, so -j 1 is the sequential run.
void run_in_workers(const std::vector<Job>& jobs, const std::vector<std::size_t>& to_run, const ExecutionOptions& options,
                    Collector& out) {
  std::vector<std::size_t> stretch;
  for (std::size_t i : to_run) {
    if (!runs_alone(*jobs[i].scenario)) {
      stretch.push_back(i);
      continue;
    }
    run_pool(jobs, stretch, options.workers, true, options, out);
    stretch.clear();
    run_pool(jobs, {i}, 1, false, options, out);  // no standby beside it either
  }
  run_pool(jobs, stretch, options.workers, true, options, out);
}

}  // namespace

ExecutedPlan execute_plan(const std::vector<Job>& jobs, const Environment& env, const ExecutionOptions& options,
                          const ResultCallback& on_result) {
  signal(SIGPIPE, SIG_IGN);  // a worker that died leaves a broken pipe: an error, not our death
  Collector out(jobs.size(), on_result, options);
  std::vector<std::size_t> to_run;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const Scenario& s = *jobs[i].scenario;
    if (auto skip = why_skipped(s, env))
      out.set(i, skipped_result(s, skip->cause, std::move(skip->reason)));
    else if (options.isolation == Isolation::none && s.family->fresh_process)
      out.set(i, skipped_result(s, SkipCause::requirement, "needs a fresh process: not run with --isolate none"));
    else
      to_run.push_back(i);
  }

  if (options.isolation == Isolation::none) {
    if (!options.run_in_process) throw std::logic_error("--isolate none without an in-process runner");
    for (std::size_t i : to_run) {
      if (stopping(options)) break;
      out.started(i);
      InProcessRun ran = options.run_in_process(*jobs[i].scenario, jobs[i].device);
      out.add_orphans(ran.orphans);
      out.set(i, std::move(ran.result));
    }
  } else {
    run_in_workers(jobs, to_run, options, out);
  }

  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (out.has(i)) continue;
    out.set(i, stopping(options) ? stopped_result(*jobs[i].scenario, options)
                                 : result_for(*jobs[i].scenario, Status::error, "no result was produced: a harness defect"));
  }
  return out.take();
}

}  // namespace hostcb
