// Runs a plan of jobs and returns exactly one result per job, in job order, whatever
// happens: a crash, a hang, garbage from a worker, an interrupt. Where the workers come
// from is decided here, behind execute_plan: a session (app/run_session.hpp) hands over
// every job at once.
//
//   --isolate none      in this process (for a debugger); fresh-process families are skipped
//   --isolate worker    worker processes run the scenarios, each many in one CUDA context,
//                       `workers` of them side by side (run -j); a worker that dies is
//                       replaced and its jobs after the one it died in go on (the default)
//   --isolate scenario  a fresh worker for every scenario, `workers` at a time
//
// A scenario that must have the device to itself (runs_alone, model/family.hpp) runs with
// no other worker beside it, whatever -j says (and, across processes, runner/device_turn.hpp).
// With one worker (-j 1) the jobs run in plan order, those alone included; with more, the
// others first, side by side, then those alone. Passes run one after another.
//
// The supervisor itself holds no CUDA context.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "model/defaults.hpp"
#include "model/enum_table.hpp"
#include "model/environment.hpp"
#include "model/family.hpp"
#include "model/orphans.hpp"
#include "model/result.hpp"

namespace hostcb {

enum class Isolation { none, worker, scenario };
inline constexpr EnumTable<Isolation, 3> kIsolations{
    "--isolate", {{{Isolation::none, "none"}, {Isolation::worker, "worker"}, {Isolation::scenario, "scenario"}}}};

// One scenario to run on one device: what a session hands the supervisor.
struct Job {
  const Scenario* scenario = nullptr;
  int device = 0;
  // Its pass (run --repeat, --until-fail): every job of a pass runs before any of a later one.
  int pass = 0;
};

// A scenario run in this process (--isolate none), and the orphans it left.
struct InProcessRun {
  Result result;
  OrphanCounts orphans;
};

struct ExecutionOptions {
  Isolation isolation = Isolation::worker;
  unsigned workers = 1;  // side by side (run -j), on the jobs' devices
  // Each worker has the next one started beside it (not for a scenario that runs alone),
  // so a crash or a timeout costs a switch, not a cold start (--no-standby: not).
  bool standby = true;
  double timeout_s = kDefaultTimeoutSeconds;  // per scenario, unless it has its own (Family::timeout)
  double startup_allowance_s = kWorkerStartupSeconds;  // for a worker to reach a scenario's start
  // Starts a worker, less its device: protocol::worker_command("/proc/self/exe", adapters).
  std::vector<std::string> worker_command;
  // --isolate none: runs one scenario in this process (the runner, which needs CUDA, is
  // handed in, so the supervisor's library never links it).
  std::function<InProcessRun(const Scenario&, int device)> run_in_process;
  // Asked before each scenario (--fail-fast, --budget), from any thread: once true, no
  // scenario starts, a worker in the middle of one is stopped, and every scenario without
  // a result is skipped (not_reached) with `stop_reason`.
  std::function<bool()> stop_requested;
  std::string stop_reason;
  // Told when a job starts (its worker said so, or just before it runs in this process):
  // what is running when a run seems stuck. Called one at a time, like on_result.
  std::function<void(std::size_t job)> on_start;
  // Told each result as soon as it is known, in any order (workers side by side finish
  // out of order): what --fail-fast needs to stop the others at once. Called one at a
  // time, before the result is handed on in job order.
  std::function<void(const Result&, std::size_t job)> on_arrival;
};

// What a plan produced: one result per job, in job order, and every orphan event the
// workers (or this process, under --isolate none) counted. Nothing travels through globals.
struct ExecutedPlan {
  std::vector<Result> results;
  OrphanCounts orphans;
};

using ResultCallback = std::function<void(const Result&, std::size_t index)>;

// Runs the jobs; `on_result` gets each result in job order as soon as it and every one
// before it are known (from the thread that completed it, one at a time).
ExecutedPlan execute_plan(const std::vector<Job>& jobs, const Environment& env, const ExecutionOptions& options,
                          const ResultCallback& on_result);

}  // namespace hostcb
