#include "exec/supervisor.hpp"

#include <signal.h>

#include <map>

#include "exec/collector.hpp"
#include "exec/interrupt.hpp"
#include "exec/shared_fault.hpp"
#include "exec/worker_pool.hpp"
#include "exec/worker_session.hpp"
#include "model/admission.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

// --isolate worker and scenario, one pass: every job that may run beside others goes to one
// pool, in plan order; then each job that must have the device to itself (runs_alone) runs
// in a program of its own with nothing beside it, in plan order: alone, or with the jobs it
// shares its device fault with (exec/shared_fault.hpp). Holding the alone jobs back keeps
// one pool for the whole pass: taking them in plan order would tear the pool down and start
// it again (a CUDA context a worker) around each of them, which a shuffled order does around
// nearly every one (on the H200, a shuffled default matrix at -j auto took 45 s for 500 of
// its 1,300 scenarios; in plan order 41 s for all). Each alone program runs in a fresh
// process with the device to itself, so what ran before it cannot reach its verdicts.
void pool_then_alone(const std::vector<Job>& jobs, const std::vector<std::size_t>& in_pass,
                     const ExecutionOptions& options, Collector& out) {
  std::vector<std::size_t> beside_others;
  for (std::size_t i : in_pass)
    if (!runs_alone(*jobs[i].scenario)) beside_others.push_back(i);
  run_pool(jobs, beside_others, options.workers, true, options, out);
  for (const auto& program : alone_programs(jobs, in_pass, options)) {
    if (stopping(options)) break;
    run_alone_program(jobs, program, options, out);
  }
}

// With one worker, plan order is the order things run in (docs/cli.md): the worker runs the
// jobs that may share it, and where the plan reaches a job that must run alone, its program
// (with the jobs of its pass it shares its fault with) runs in a fresh process while that
// worker waits, idle (no kernel of its in flight beside a fault). So a stop (--fail-fast,
// --until-fail) leaves out only what comes after the result that stopped it, and the shared
// jobs of every pass run in one worker (a race that needs one process's history).
void in_plan_order(const std::vector<Job>& jobs, const std::vector<std::size_t>& to_run, const ExecutionOptions& options,
                   Collector& out) {
  const std::vector<std::vector<std::size_t>> programs = alone_programs(jobs, to_run, options);
  std::map<std::size_t, std::size_t> program_of;  // an alone job -> its program
  for (std::size_t p = 0; p < programs.size(); ++p)
    for (std::size_t i : programs[p]) program_of[i] = p;
  std::vector<bool> program_ran(programs.size(), false);
  run_pool(jobs, to_run, 1, true, options, out, [&](std::size_t job) {
    const std::size_t p = program_of.at(job);
    if (!program_ran[p]) run_alone_program(jobs, programs[p], options, out);
    program_ran[p] = true;
  });
}

// --isolate worker and scenario. With one worker, in plan order; with more, pass after pass
// (--repeat's passes are whole: --until-fail's stop comes in the pass that failed, with
// every job of the passes before it run), each pass's pool, then its alone programs.
void run_in_workers(const std::vector<Job>& jobs, const std::vector<std::size_t>& to_run, const ExecutionOptions& options,
                    Collector& out) {
  if (options.workers <= 1) return in_plan_order(jobs, to_run, options, out);
  std::map<int, std::vector<std::size_t>> passes;
  for (std::size_t i : to_run) passes[jobs[i].pass].push_back(i);
  for (const auto& [pass, in_pass] : passes) {
    if (stopping(options)) break;
    pool_then_alone(jobs, in_pass, options, out);
  }
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
