// Runs a plan and returns exactly one result per planned scenario, in plan order,
// whatever happens: a crash, a hang, garbage from a worker, an interrupt.
//
//   --isolate none      in this process (for a debugger); fresh-process families are skipped
//   --isolate worker    one worker process runs the scenarios in order in one CUDA context;
//                       a worker that dies is replaced and the run resumes after the
//                       scenario it died in (the default)
//   --isolate scenario  a fresh worker for every scenario
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
#include "model/result.hpp"

namespace hostcb {

enum class Isolation { none, worker, scenario };
inline constexpr EnumTable<Isolation, 3> kIsolations{
    "--isolate", {{{Isolation::none, "none"}, {Isolation::worker, "worker"}, {Isolation::scenario, "scenario"}}}};

struct ExecutionOptions {
  Isolation isolation = Isolation::worker;
  double timeout_s = kDefaultTimeoutSeconds;  // per scenario, unless it has its own (Family::timeout)
  double startup_allowance_s = kWorkerStartupSeconds;  // for a worker to reach a scenario's start
  // Starts a worker, less its device: protocol::worker_command("/proc/self/exe", adapters).
  std::vector<std::string> worker_command;
  int device = 0;
  // --isolate none: runs one scenario in this process (the runner, which needs CUDA, is
  // handed in, so the supervisor's library never links it).
  std::function<Result(const Scenario&)> run_in_process;
  // Asked after each result (--fail-fast): once true, no scenario starts, a worker in the
  // middle of one is stopped, and every scenario without a result is skipped with
  // `stop_reason`.
  std::function<bool()> stop_requested;
  std::string stop_reason;
};

using ResultCallback = std::function<void(const Result&, std::size_t index)>;

std::vector<Result> execute_plan(const std::vector<Scenario>& plan, const Environment& env,
                                 const ExecutionOptions& options, const ResultCallback& on_result);

}  // namespace hostcb
