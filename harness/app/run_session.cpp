#include "app/run_session.hpp"

#include <algorithm>
#include <random>

#include "app/expectations.hpp"
#include "app/rerun_commands.hpp"
#include "exec/interrupt.hpp"
#include "exec/poisoned_frees.hpp"
#include "model/errors.hpp"
#include "runner/device_turn.hpp"
#include "runner/runner.hpp"

namespace hostcb {

RunSession::RunSession(const SessionOptions& options) {
  if (!options.needs_workers.empty() && options.execution.isolation == Isolation::none)
    throw UsageError(options.needs_workers);
  if (std::string lock_folder = DeviceTurn::folder_problem(); !lock_folder.empty()) throw UsageError(lock_folder);
  if (!options.execution.no_poison) poison_frees_in_workers();  // before any thread of ours runs
  install_interrupt_handlers();
  execution_ = execution_options(options.execution, options.adapters);
  adapters_ = options.adapters;
  axes_ = options.axes;
  const bool all = options.device == kAllDevicesName;
  env_ = environment_for(all ? 0 : device_ordinal(options.device), options.command_line);
  devices_ = devices_for(options.device, env_);
  execution_.workers = worker_count(options.execution.workers, devices_.size());
  if (all) env_.selected_device = kAllDevices;
  execution_.run_in_process = [this](const Scenario& s, int device) { return run_in_process(s, device); };
  execution_.stop_requested = [this] { return stop_.stopping(); };
}

RunSession::~RunSession() = default;

void RunSession::shuffle(std::uint64_t seed) {
  shuffle_seed_ = seed;
  env_.shuffle_seed = std::to_string(seed);
}

void shuffle_order(std::vector<std::size_t>& order, std::uint64_t seed) {
  // Fisher-Yates over mt19937_64, both fully specified: std::shuffle and the standard
  // distributions are not, and a seed must replay its order on every platform.
  std::mt19937_64 random(seed);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random() % i]);
}

SessionOutcome RunSession::run(const std::vector<Scenario>& selection, int passes, Reporter& reporter) {
  std::vector<Job> jobs;
  std::vector<Tag> tags;
  for (int device : devices_)
    for (int pass = 1; pass <= passes; ++pass) {
      const std::size_t base = jobs.size();
      std::vector<std::size_t> order(selection.size());
      for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
      if (shuffle_seed_) shuffle_order(order, *shuffle_seed_ + base);  // each pass its own order
      for (std::size_t k : order) {
        jobs.push_back({&selection[k], device, pass});
        tags.push_back({devices_.size() > 1 ? device : -1, passes > 1 ? pass : 0, base + k});
      }
    }
  start(reporter, jobs.size());
  execute(jobs, tags, reporter);
  return finish(reporter);
}

SessionOutcome RunSession::run_batches(const BatchMaker& batch, std::size_t planned, Reporter& reporter) {
  start(reporter, planned);
  for (std::int64_t k = 0; !stop_.stopping() && !interrupt_signal(); ++k) {
    const std::vector<Scenario> scenarios = batch(k);
    std::vector<Job> jobs;
    for (const Scenario& s : scenarios) jobs.push_back({&s, devices_.front()});
    if (!execute(jobs, std::vector<Tag>(jobs.size()), reporter)) break;  // nothing ran (no GPU): no batch will
  }
  return finish(reporter);
}

void RunSession::start(Reporter& reporter, std::size_t planned) {
  outcome_ = SessionOutcome{};
  outcome_.report.started_utc = utc_now();
  outcome_.report.environment = env_;
  planned_ = planned;
  reported_ = 0;
  reported_planned_.clear();
  reporter.run_started(env_, planned);
  started_ = std::chrono::steady_clock::now();
}

bool RunSession::execute(const std::vector<Job>& jobs, const std::vector<Tag>& tags, Reporter& reporter) {
  execution_.stop_reason = stop_.reason();
  execution_.on_start = [&](std::size_t k) { reporter.on_start(*jobs[k].scenario, k); };
  execution_.on_arrival = [&](const Result& finished, std::size_t k) { stop_.saw(stamped(finished, tags[k])); };
  bool ran = false;
  ExecutedPlan executed = execute_plan(jobs, env_, execution_, [&](const Result& finished, std::size_t k) {
    Result r = stamped(finished, tags[k]);
    if (!stop_.keep(r)) return;
    add_rerun_commands(r, {adapters_, axes_, jobs[k].scenario->control.has_value()});
    ran = ran || r.status != Status::skipped;
    // A --budget run reports past what it planned: the position only says how far it came.
    reporter.on_result(r, reported_, std::max(planned_, reported_ + 1));
    ++reported_;
    outcome_.report.results.push_back(std::move(r));
    reported_planned_.push_back(tags[k].planned);
  });
  execution_.on_start = nullptr;
  execution_.on_arrival = nullptr;
  outcome_.report.orphans.add(executed.orphans);
  return ran;
}

Result RunSession::stamped(const Result& finished, const Tag& tag) const {
  Result r = finished;
  if (tag.device >= 0) r.device = tag.device;
  if (tag.pass > 0) r.iteration = tag.pass;
  if (expectations_) apply_expectation(r, *expectations_, env_);  // before any reporter sees it
  return r;
}

SessionOutcome RunSession::finish(Reporter& reporter) {
  if (shuffle_seed_) {  // the reporter saw the run's order; the report holds the plan's
    std::vector<std::size_t> by_plan(outcome_.report.results.size());
    for (std::size_t k = 0; k < by_plan.size(); ++k) by_plan[k] = k;
    std::stable_sort(by_plan.begin(), by_plan.end(),
                     [&](std::size_t a, std::size_t b) { return reported_planned_[a] < reported_planned_[b]; });
    std::vector<Result> in_plan_order;
    for (std::size_t k : by_plan) in_plan_order.push_back(std::move(outcome_.report.results[k]));
    outcome_.report.results = std::move(in_plan_order);
  }
  fail_orphans_blame(outcome_.report.results, outcome_.report.orphans);  // before any report is written
  outcome_.report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  reporter.run_finished(outcome_.report, outcome_.files);
  outcome_.interrupt_signal = interrupt_signal();
  return std::move(outcome_);
}

InProcessRun RunSession::run_in_process(const Scenario& scenario, int device) {
  std::unique_ptr<Runner>& runner = runners_[device];
  if (!runner) {
    Environment& on_device = device_envs_[device] = env_;
    on_device.selected_device = device;
    runner = std::make_unique<Runner>(on_device);
  }
  if (auto left = unusable_after_.find(device); left != unusable_after_.end())
    return {skipped_result(scenario, SkipCause::not_reached, left->second), {}};
  InProcessRun ran{runner->run(scenario), {}};
  ran.orphans = in_process_orphans_.take();
  for (const auto& [id, calls] : ran.orphans.by_scenario())  // as a worker does (runner/worker.cpp)
    if (id == ran.result.id) fail_for_orphans(ran.result, calls);
  if (!runner->context_unusable().empty())
    unusable_after_[device] = str("not run: ", scenario.id, " left this process's context unusable (",
                                  runner->context_unusable(), "), and --isolate none has no fresh one to give");
  return ran;
}

}  // namespace hostcb
