// One run's way through hostcb, the same for `run`, `self-test`, `shrink` and the CTest
// fixtures (which are `hostcb run`):
//
//   selection x passes x devices  -> jobs            (one scenario on one device)
//   jobs -> execute_plan (exec/)  -> results in job order, whatever the workers did
//        -> device and pass stamped, expectations applied, the stop policy told
//        -> the reporter, in order  -> SessionOutcome (what was reported, orphans, files)
//
// The session owns the environment, the execution options (workers, their adapters, time
// limits), the in-process runners of --isolate none and the stop policy; a command owns
// only its selection, its reporter and its verdict. What a command may refuse about them
// is refused when the session is made, before anything runs.
//
// Where the workers come from is execute_plan's business: the session hands it every job
// at once, so a pool of workers (several at a time, a standby) fits in behind it.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/options.hpp"
#include "app/stop_policy.hpp"
#include "callback/active_scenario.hpp"
#include "exec/supervisor.hpp"
#include "model/environment.hpp"
#include "model/result.hpp"
#include "reports/reporter.hpp"

namespace hostcb {

struct Expectations;
class Runner;

struct SessionOptions {
  std::string device = "0";  // --device: an ordinal, or "all" where the command allows it
  ExecutionCliOptions execution;
  std::vector<std::string> adapters;  // --adapter: the workers load them too
  std::string command_line;
  // Set for a command whose scenarios crash on purpose (self-test, shrink): --isolate none
  // is refused with this line.
  std::string needs_workers;
  std::vector<std::string> axes;  // run's --axis, as given: a failure's rerun command repeats them
};

struct SessionOutcome {
  RunReport report;   // the environment, the results as reported, the time, the orphans
  ReportFiles files;  // what the reporter wrote, and what it could not
  int interrupt_signal = 0;
};

// Shuffles `order` by `seed`, the same way on every platform (run --shuffle).
void shuffle_order(std::vector<std::size_t>& order, std::uint64_t seed);

class RunSession {
 public:
  explicit RunSession(const SessionOptions& options);  // throws UsageError
  ~RunSession();
  RunSession(const RunSession&) = delete;
  RunSession& operator=(const RunSession&) = delete;

  const Environment& environment() const { return env_; }
  std::size_t device_count() const { return devices_.size(); }
  unsigned workers() const { return execution_.workers; }  // -j, resolved

  void use_expectations(const Expectations* expectations) { expectations_ = expectations; }
  // run --shuffle: each pass on each device runs in an order shuffled by `seed` (the same on
  // every platform); the reporter sees results in that order, the report (JUnit, JSON) holds
  // them in plan order, with the seed in its environment.
  void shuffle(std::uint64_t seed);
  void require_gpu() { env_.require_gpu = true; }  // recorded in the reports' environment
  StopPolicy& stop_policy() { return stop_; }

  // Runs the selection `passes` times over on each device in turn (--repeat; results carry
  // their pass when there are several, and their device when there are several).
  SessionOutcome run(const std::vector<Scenario>& selection, int passes, Reporter& reporter);
  // --budget: batch after batch (batch k from `batch(k)`) until the stop policy's time is
  // spent, the stop policy stops, an interrupt comes or a batch runs nothing (no GPU).
  // Results are numbered as they come; `planned` is what the first batch holds.
  using BatchMaker = std::function<std::vector<Scenario>(std::int64_t batch)>;
  SessionOutcome run_batches(const BatchMaker& batch, std::size_t planned, Reporter& reporter);

 private:
  // What a job's result is stamped with: its device (-1: not, with one device) and its
  // pass (0: not, with one pass).
  struct Tag {
    int device = -1;
    int pass = 0;
    std::size_t planned = 0;  // its place in the plan (before a --shuffle)
  };
  void start(Reporter& reporter, std::size_t planned);
  // A finished job's result as the reports see it: its tag stamped, expectations applied.
  Result stamped(const Result& finished, const Tag& tag) const;
  // Runs `jobs`; true when any of them ran (was not skipped).
  bool execute(const std::vector<Job>& jobs, const std::vector<Tag>& tags, Reporter& reporter);
  SessionOutcome finish(Reporter& reporter);
  InProcessRun run_in_process(const Scenario& scenario, int device);

  Environment env_;
  std::vector<int> devices_;
  ExecutionOptions execution_;
  std::vector<std::string> adapters_, axes_;  // --adapter and --axis as given, for the rerun commands
  const Expectations* expectations_ = nullptr;
  std::optional<std::uint64_t> shuffle_seed_;
  StopPolicy stop_;
  std::map<int, std::unique_ptr<Runner>> runners_;  // --isolate none: one per device
  std::map<int, Environment> device_envs_;          // what each runner sees
  // --isolate none: a device whose context a scenario left unusable, and which one did;
  // this process has no fresh context to give the scenarios after it.
  std::map<int, std::string> unusable_after_;
  OrphanTally in_process_orphans_;
  SessionOutcome outcome_;
  std::size_t planned_ = 0, reported_ = 0;
  std::vector<std::size_t> reported_planned_;  // each reported result's place in the plan
  std::chrono::steady_clock::time_point started_;
};

}  // namespace hostcb
