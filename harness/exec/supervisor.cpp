#include "exec/supervisor.hpp"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

#include "callback/progress.hpp"
#include "exec/interrupt.hpp"
#include "exec/worker_session.hpp"
#include "model/admission.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

// Fills results in any order, from any thread; hands them to the callback in job order,
// one at a time. Orphans the workers counted are gathered here too.
class Collector {
 public:
  Collector(std::size_t size, const ResultCallback& callback, const std::function<void(std::size_t)>& on_start)
      : slots_(size), callback_(callback), on_start_(on_start) {}
  void started(std::size_t i) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (on_start_) on_start_(i);
  }
  bool has(std::size_t i) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return slots_[i].has_value();
  }
  void set(std::size_t i, Result result) {
    std::lock_guard<std::mutex> lock(mutex_);
    slots_[i] = std::move(result);
    for (; next_ < slots_.size() && slots_[next_]; ++next_)
      if (callback_) callback_(*slots_[next_], next_);
  }
  void add_orphans(const OrphanCounts& orphans) {
    std::lock_guard<std::mutex> lock(mutex_);
    orphans_.add(orphans);
  }
  ExecutedPlan take() {
    ExecutedPlan out;
    for (auto& slot : slots_) out.results.push_back(std::move(*slot));
    out.orphans = std::move(orphans_);
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::optional<Result>> slots_;
  const ResultCallback& callback_;
  const std::function<void(std::size_t)>& on_start_;
  std::size_t next_ = 0;
  OrphanCounts orphans_;
};

// Runs jobs[batch[...]] (all on one device) in workers until each has a result, replacing
// a worker that dies. Returns early only when interrupted or stopped (--fail-fast).
void run_batch(const std::vector<Job>& jobs, const std::vector<std::size_t>& batch, const ExecutionOptions& options,
               Collector& out, SharedProgress& progress) {
  std::size_t pos = 0;  // the first entry of the batch without a result
  while (pos < batch.size()) {
    if (stopping(options)) return;
    std::vector<const Scenario*> left;
    for (std::size_t k = pos; k < batch.size(); ++k) left.push_back(jobs[batch[k]].scenario);
    const std::size_t base = pos;
    WorkerSession session(std::move(left), jobs[batch[base]].device, options, progress);
    pos = base + session.run([&](std::size_t k, Result r) { out.set(batch[base + k], std::move(r)); },
                             [&](std::size_t k) { out.started(batch[base + k]); });
    out.add_orphans(session.orphans());
  }
}

// Scenarios that each need a fresh process (they break their CUDA context on purpose) run
// side by side, a few at a time: each has its own process and context, so nothing is
// shared but the GPU, and most of their time is process and context start-up.
constexpr unsigned kFreshProcessesAtOnce = 8;

void run_fresh_processes(const std::vector<Job>& jobs, const std::vector<std::size_t>& fresh,
                         const ExecutionOptions& options, Collector& out) {
  std::atomic<std::size_t> next{0};
  auto run_some = [&] {
    SharedProgress progress;  // one page per worker: where its scenario is
    for (std::size_t k; (k = next.fetch_add(1)) < fresh.size();) run_batch(jobs, {fresh[k]}, options, out, progress);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<std::size_t>(kFreshProcessesAtOnce, fresh.size()); ++t) threads.emplace_back(run_some);
  run_some();
  for (auto& thread : threads) thread.join();
}

// --isolate worker: consecutive jobs on one device share a worker; fresh-process ones run
// side by side. --isolate scenario: a worker for each job.
void run_in_workers(const std::vector<Job>& jobs, const std::vector<std::size_t>& to_run, const ExecutionOptions& options,
                    Collector& out) {
  SharedProgress progress;
  std::vector<std::size_t> shared, fresh;  // consecutive jobs that may share one worker, or run side by side
  auto flush = [&] {
    if (!shared.empty()) run_batch(jobs, shared, options, out, progress);
    if (!fresh.empty()) run_fresh_processes(jobs, fresh, options, out);
    shared.clear();
    fresh.clear();
  };
  for (std::size_t i : to_run) {
    if (options.isolation == Isolation::scenario) {
      flush();
      run_batch(jobs, {i}, options, out, progress);
    } else if (jobs[i].scenario->family->fresh_process) {
      if (!shared.empty()) flush();
      fresh.push_back(i);
    } else {
      if (!fresh.empty() || (!shared.empty() && jobs[shared.back()].device != jobs[i].device)) flush();
      shared.push_back(i);
    }
  }
  flush();
}

}  // namespace

ExecutedPlan execute_plan(const std::vector<Job>& jobs, const Environment& env, const ExecutionOptions& options,
                          const ResultCallback& on_result) {
  signal(SIGPIPE, SIG_IGN);  // a worker that died leaves a broken pipe: an error, not our death
  Collector out(jobs.size(), on_result, options.on_start);
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
