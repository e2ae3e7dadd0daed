// One worker's life under the supervisor: start it, send it the scenarios left in a batch,
// pump its events and output, enforce the time limits, and when it dies put the blame on
// the scenario in hand. supervisor.cpp starts sessions until the batch is done.
//
// Everything after the start happens under the clock, in one poll loop: the commands are
// written as the worker takes them (never blocking on a worker that does not read), its
// output is read all along (a worker that prints a lot never blocks), and an interrupt
// wakes the loop. The session ends when the worker process has exited or was killed, not
// when its pipes close: what a layer started in the worker may hold them for ever.
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
#include "model/orphans.hpp"
#include "model/result.hpp"
#include "protocol/worker_protocol.hpp"

namespace hostcb {

// "interrupted by SIGINT" (SIGTERM, SIGHUP): the reason of a scenario an interrupt stopped.
std::string interrupted_reason();
// An interrupt, or the caller asking to stop (--fail-fast): no new scenario starts.
bool stopping(const ExecutionOptions& options);
// A scenario that a stop kept from running or finishing: skipped, with why.
Result stopped_result(const Scenario& scenario, const ExecutionOptions& options, double seconds = 0);

class WorkerSession {
 public:
  // Results are handed to `on_result` with the scenario's index in `scenarios`; each start
  // the worker reports to `on_start`.
  using Deliver = std::function<void(std::size_t, Result)>;
  using Started = std::function<void(std::size_t)>;
  // Where more scenarios come from once `scenarios` are sent: asked whenever fewer than
  // kAhead are in the worker's hands, it returns nullptr when there are none (a pool's
  // shared queue). Without one the session runs `scenarios` only.
  using Feed = std::function<const Scenario*()>;
  // One at a time: a job sent ahead would be held by this worker while another sits idle
  // (the next command costs one pipe round trip, microseconds, after each result).
  static constexpr std::size_t kAhead = 1;

  WorkerSession(std::vector<const Scenario*> scenarios, int device, const ExecutionOptions& options,
                SharedProgress& progress, Feed feed = nullptr);
  WorkerSession(const WorkerSession&) = delete;
  WorkerSession& operator=(const WorkerSession&) = delete;

  // Takes over a worker already started on this session's device (a standby: it may be
  // done with its start-up, adapters loaded, context made) instead of starting one.
  void adopt(WorkerProcess started) { worker_ = started; }
  // Sends the scenarios as one program that shares one device fault (protocol: "with");
  // the session gets no feed then.
  void share_one_fault() { share_one_fault_ = true; }

  // Runs until the worker is gone. Every scenario before the returned count has a result;
  // fewer than all when the worker could not start (each left one is an error), when it
  // retired (its context unusable: the rest are for a fresh worker, unblamed) or when an
  // interrupt came (a started scenario is skipped with the time it ran).
  // Scenarios the feed gave are appended: indices go on past the first ones.
  std::size_t run(const Deliver& on_result, const Started& on_start);
  // What the worker counted, from its events: they fail the run.
  const OrphanCounts& orphans() const { return orphans_; }

 private:
  using Clock = std::chrono::steady_clock;
  void pump();  // one poll round
  void top_up();  // asks the feed for scenarios while fewer than kAhead are in hand
  void send_commands();
  bool read_events();  // true when it read something
  bool read_output();
  void handle_event(const protocol::Event& event);
  void kill_worker(std::string why);
  void retire();  // the worker said its context is unusable: it gets nothing more
  void stop_for_interrupt();  // SIGINT/SIGTERM or a stop request: kill it; its scenario is skipped
  void drain_after_exit();   // the worker exited: what its pipes still hold
  void drain_after_kill();   // killed: its output, until every holder of the pipe is gone
  void read_output_until(Clock::time_point deadline);
  // Before a kill for a timeout: "\nthreads when it was stopped: ...", their stacks in the output.
  std::string where_its_threads_are();
  Result blame(int wait_status);  // the result of the scenario it died in
  double limit() const;

  std::vector<const Scenario*> scenarios_;
  int device_;
  const ExecutionOptions& options_;
  SharedProgress& progress_;
  Feed feed_;
  Deliver deliver_;
  Started started_event_;
  WorkerProcess worker_;
  std::string commands_;  // encoded, not yet written
  protocol::LineBuffer events_;
  OrphanCounts orphans_;
  std::size_t pos_ = 0;  // the first scenario without a result
  bool started_ = false, events_open_ = true, output_open_ = true;
  bool exited_ = false, killed_ = false, interrupted_ = false;
  bool retired_ = false;  // the worker retires after its last result (protocol: "retire")
  bool share_one_fault_ = false;
  std::string cause_;
  Clock::time_point since_;
  OutputTail tail_;
};

}  // namespace hostcb
