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

// Fills results in any order, from any thread; hands them to the callback in plan order,
// one at a time.
class Collector {
 public:
  Collector(std::size_t size, const ResultCallback& callback) : slots_(size), callback_(callback) {}
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
  std::vector<Result> take() {
    std::vector<Result> out;
    for (auto& slot : slots_) out.push_back(std::move(*slot));
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::optional<Result>> slots_;
  const ResultCallback& callback_;
  std::size_t next_ = 0;
};

// Runs plan[batch[...]] in workers until each has a result, replacing a worker that dies.
// Returns early only when interrupted or stopped (--fail-fast).
void run_batch(const std::vector<Scenario>& plan, const std::vector<std::size_t>& batch,
               const ExecutionOptions& options, Collector& out, SharedProgress& progress) {
  std::size_t pos = 0;  // the first entry of the batch without a result
  while (pos < batch.size()) {
    if (stopping(options)) return;
    std::vector<const Scenario*> left;
    for (std::size_t k = pos; k < batch.size(); ++k) left.push_back(&plan[batch[k]]);
    const std::size_t base = pos;
    WorkerSession session(std::move(left), options.device, options, progress);
    pos = base + session.run([&](std::size_t k, Result r) { out.set(batch[base + k], std::move(r)); });
  }
}

// Scenarios that each need a fresh process (they break their CUDA context on purpose) run
// side by side, a few at a time: each has its own process and context, so nothing is
// shared but the GPU, and most of their time is process and context start-up.
constexpr unsigned kFreshProcessesAtOnce = 8;

void run_fresh_processes(const std::vector<Scenario>& plan, const std::vector<std::size_t>& fresh,
                         const ExecutionOptions& options, Collector& out) {
  std::atomic<std::size_t> next{0};
  auto run_some = [&] {
    SharedProgress progress;  // one page per worker: where its scenario is
    for (std::size_t k; (k = next.fetch_add(1)) < fresh.size();) run_batch(plan, {fresh[k]}, options, out, progress);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<std::size_t>(kFreshProcessesAtOnce, fresh.size()); ++t) threads.emplace_back(run_some);
  run_some();
  for (auto& thread : threads) thread.join();
}

}  // namespace

std::vector<Result> execute_plan(const std::vector<Scenario>& plan, const Environment& env,
                                 const ExecutionOptions& options, const ResultCallback& on_result) {
  signal(SIGPIPE, SIG_IGN);  // a worker that died leaves a broken pipe: an error, not our death
  Collector out(plan.size(), on_result);
  std::vector<std::size_t> to_run;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (auto skip = why_skipped(plan[i], env))
      out.set(i, skipped_result(plan[i], skip->cause, std::move(skip->reason)));
    else if (options.isolation == Isolation::none && plan[i].family->fresh_process)
      out.set(i, skipped_result(plan[i], SkipCause::requirement, "needs a fresh process: not run with --isolate none"));
    else
      to_run.push_back(i);
  }

  if (options.isolation == Isolation::none) {
    if (!options.run_in_process) throw std::logic_error("--isolate none without an in-process runner");
    for (std::size_t i : to_run) {
      if (stopping(options)) break;
      out.set(i, options.run_in_process(plan[i]));
    }
  } else {
    SharedProgress progress;
    std::vector<std::size_t> shared, fresh;  // consecutive scenarios that may share one worker, or run side by side
    auto flush = [&] {
      if (!shared.empty()) run_batch(plan, shared, options, out, progress);
      if (!fresh.empty()) run_fresh_processes(plan, fresh, options, out);
      shared.clear();
      fresh.clear();
    };
    for (std::size_t i : to_run) {
      if (options.isolation == Isolation::scenario) {
        flush();
        run_batch(plan, {i}, options, out, progress);
      } else if (plan[i].family->fresh_process) {
        if (!shared.empty()) flush();
        fresh.push_back(i);
      } else {
        if (!fresh.empty()) flush();
        shared.push_back(i);
      }
    }
    flush();
  }

  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (out.has(i)) continue;
    out.set(i, stopping(options) ? stopped_result(plan[i], options)
                                 : result_for(plan[i], Status::error, "no result was produced: a harness defect"));
  }
  return out.take();
}

}  // namespace hostcb
