#include "exec/worker_pool.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "callback/progress.hpp"
#include "exec/worker_process.hpp"
#include "exec/worker_session.hpp"
#include "protocol/worker_protocol.hpp"

namespace hostcb {

namespace {

// The jobs no worker holds yet, by device, each device's in plan order.
class JobQueue {
 public:
  JobQueue(const std::vector<Job>& jobs, const std::vector<std::size_t>& batch) {
    for (std::size_t i : batch) {
      if (!queues_.count(jobs[i].device)) devices_.push_back(jobs[i].device);
      queues_[jobs[i].device].push_back(i);
    }
  }
  const std::vector<int>& devices() const { return devices_; }
  // The next job on `device`, if any.
  std::optional<std::size_t> take(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return pop(queues_[device]);
  }
  // The next job on `home`, else on the first device that has one: a thread whose
  // device is done helps the others.
  std::optional<std::size_t> take_any(int home) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto job = pop(queues_[home])) return job;
    for (int device : devices_)
      if (auto job = pop(queues_[device])) return job;
    return std::nullopt;
  }

 private:
  static std::optional<std::size_t> pop(std::deque<std::size_t>& queue) {
    if (queue.empty()) return std::nullopt;
    std::size_t job = queue.front();
    queue.pop_front();
    return job;
  }
  std::mutex mutex_;
  std::map<int, std::deque<std::size_t>> queues_;
  std::vector<int> devices_;  // in the order the batch first names them
};

// The next worker of a pool thread, started while the current one runs (from its first
// scenario on). It shares the
// thread's progress page: it writes there only once it has a command, and by then the
// worker before it is gone.
class Standby {
 public:
  Standby(const ExecutionOptions& options, SharedProgress& progress) : options_(options), progress_(progress) {}
  ~Standby() { discard(); }
  Standby(const Standby&) = delete;
  Standby& operator=(const Standby&) = delete;
  void start(int device) {
    discard();
    try {
      worker_ = spawn_worker(protocol::worker_argv(options_.worker_command, device), progress_.fd());
      device_ = device;
    } catch (const std::exception&) {
      worker_.reset();  // the session that needs it starts its own, and reports why it cannot
    }
  }
  bool waiting() const { return worker_.has_value(); }
  // The standby for `device`, if one is there; one for another device, or one that died
  // while it waited (no scenario's fault: a new worker is started), is let go.
  std::optional<WorkerProcess> take(int device) {
    if (worker_ && (device_ != device || worker_has_exited(worker_->pid))) discard();
    std::optional<WorkerProcess> out = worker_;
    worker_.reset();
    return out;
  }
  void discard() {
    if (worker_) reap_worker(*worker_);  // it was waiting for commands: killed with its group
    worker_.reset();
  }

 private:
  const ExecutionOptions& options_;
  SharedProgress& progress_;
  std::optional<WorkerProcess> worker_;
  int device_ = 0;
};

// One pool thread: worker after worker, until the queue has nothing for it.
void serve(const std::vector<Job>& jobs, JobQueue& queue, int home, bool standby, const ExecutionOptions& options,
           Collector& out, const InPlace& in_place) {
  SharedProgress progress;          // this thread's page: where its worker's scenario is
  std::vector<std::size_t> held;    // jobs its last worker was given but did not finish
  Standby next(options, progress);
  // A job for a worker: one that must run alone, where the queue reaches it, runs in place.
  auto for_a_worker = [&](std::optional<std::size_t> job, auto take) {
    while (job && in_place && runs_alone(*jobs[*job].scenario)) {
      in_place(*job);
      if (stopping(options)) return std::optional<std::size_t>();
      job = take();
    }
    return job;
  };
  while (!stopping(options)) {
    if (held.empty()) {
      std::optional<std::size_t> first = for_a_worker(queue.take_any(home), [&] { return queue.take_any(home); });
      if (!first) return;
      held.push_back(*first);
    }
    const int device = jobs[held.front()].device;
    std::vector<const Scenario*> scenarios;
    for (std::size_t job : held) scenarios.push_back(jobs[job].scenario);
    WorkerSession::Feed feed;
    if (options.isolation != Isolation::scenario)
      feed = [&]() -> const Scenario* {
        std::optional<std::size_t> job = for_a_worker(queue.take(device), [&] { return queue.take(device); });
        if (!job) return nullptr;
        held.push_back(*job);
        return jobs[*job].scenario;
      };
    WorkerSession session(std::move(scenarios), device, options, progress, std::move(feed));
    if (std::optional<WorkerProcess> ready = next.take(device)) session.adopt(*ready);
    // The standby starts once this worker runs a scenario: not in the first wave of
    // start-ups, where it would only compete with the workers for the device.
    auto started = [&](std::size_t k) {
      out.started(held[k]);
      if (standby && !next.waiting()) next.start(device);
    };
    const std::size_t done = session.run([&](std::size_t k, Result r) { out.set(held[k], std::move(r)); }, started);
    out.add_orphans(session.orphans());
    held.erase(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(done));
  }
}

}  // namespace

void run_pool(const std::vector<Job>& jobs, const std::vector<std::size_t>& batch, unsigned workers, bool standby,
              const ExecutionOptions& options, Collector& out, const InPlace& in_place) {
  standby = standby && options.standby;
  if (batch.empty()) return;
  JobQueue queue(jobs, batch);
  const std::vector<int>& devices = queue.devices();
  const std::size_t n = std::max<std::size_t>(1, std::min<std::size_t>(workers, batch.size()));
  // Threads that outlive their workers (PR_SET_PDEATHSIG follows the forking thread);
  // thread t's home device is the t-th, round the devices, so each gets its share.
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < n; ++t)
    threads.emplace_back([&, t] { serve(jobs, queue, devices[t % devices.size()], standby, options, out, in_place); });
  serve(jobs, queue, devices.front(), standby, options, out, in_place);
  for (auto& thread : threads) thread.join();
}

}  // namespace hostcb
