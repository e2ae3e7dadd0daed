// The scenario running now, reachable from any thread.
//
// Callbacks get only a userData pointer; to report a failure or find their probe they
// look up the active scenario. The runner activates one scenario at a time and keeps it
// active until the device is idle, so no callback can outlive what it points to.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "callback/failure_channel.hpp"
#include "model/orphans.hpp"

namespace hostcb {

class Probe;

struct ActiveScenario {
  explicit ActiveScenario(std::string scenario_id) : id(std::move(scenario_id)) {}
  std::string id;
  FailureChannel channel;
  std::uint64_t runner_thread = 0;              // thread_token() of the thread running the body
  std::atomic<std::int64_t> runner_launch{-1};  // the launch the body is on, for its own failures
  std::atomic<Probe*> probe{nullptr};
  // Behind a shared fault: its result has been judged and sent. A call to one of its
  // sites after that is an orphan of its own, not a call it counts unseen or a stray of
  // the neighbour being checked.
  std::atomic<bool> judged{false};
};

ActiveScenario* active_scenario() noexcept;

// Makes a scenario active for its lifetime (RAII); one at a time per process.
class ScenarioActivation {
 public:
  explicit ScenarioActivation(ActiveScenario& scenario);
  ~ScenarioActivation();
  ScenarioActivation(const ScenarioActivation&) = delete;
  ScenarioActivation& operator=(const ScenarioActivation&) = delete;
};

// Scenarios armed together behind one device fault (model/shared_fault.hpp): while this
// lives, a call whose userData is a site of one of their probes reaches that probe,
// whichever of them is active, or none. One set at a time per process.
// The list is kept for the process (callback/kept.hpp): a callback may still be reading it
// when the set is let go.
class ArmedTogether {
 public:
  explicit ArmedTogether(std::vector<ActiveScenario*> members);
  ~ArmedTogether();
  ArmedTogether(const ArmedTogether&) = delete;
  ArmedTogether& operator=(const ArmedTogether&) = delete;

 private:
  const std::vector<ActiveScenario*>& members_;
};
// The set armed together now; nullptr outside a shared fault.
const std::vector<ActiveScenario*>* armed_together() noexcept;

// A small number naming the calling thread, stable for its life; cheap after first use.
std::uint64_t thread_token() noexcept;

// Orphan events: host-function calls that found no scenario (one that ran after its
// scenario ended) or no armed probe to report to. Each is blamed on the scenario active
// when it arrived, else the one active last ("" before the first): a host function that
// outlives its scenario runs after it, so that is the one that enqueued it. These counts
// are this process's own; they leave it as data (OrphanTally), never through a global of
// another layer.
std::uint64_t orphan_events() noexcept;  // counted in this process
void count_orphan_event() noexcept;
// The same, blamed on the scenario named: a late call whose scenario is known by its site.
void count_orphan_event_of(const std::string& scenario_id) noexcept;
// Counts by scenario, in order of the first orphan blamed on each.
std::vector<std::pair<std::string, std::uint64_t>> orphan_events_by_scenario();

// Orphans counted in this process since the last take(), by scenario: what a worker sends
// with each event, and what an in-process run hands back with its result.
class OrphanTally {
 public:
  OrphanCounts take();

 private:
  std::map<std::string, std::uint64_t> taken_;
};

// Sends a failure to the active scenario's channel, with the launch number taken from the
// enclosing guarded callback or else from the body's current launch. Never throws.
void report_failure(const char* file, int line, const std::string& message) noexcept;

// Worker mode: also write each failure to stderr as it happens, so that a crash report
// (the worker's last words) still holds the failures the crash took with it.
void set_failure_echo(bool on) noexcept;

// The launch number a guarded callback is serving, for report_failure (RAII, per thread).
class CallbackLaunchScope {
 public:
  explicit CallbackLaunchScope(std::int64_t launch) noexcept;
  ~CallbackLaunchScope();

 private:
  std::int64_t previous_;
};

// Strips the source directory so reports name files like "cases/replay.cu".
std::string project_relative(const char* file);

}  // namespace hostcb

// Checks a condition anywhere in a scenario, callbacks included; on failure reports
// through the channel and carries on. Never uses Catch2 or exceptions.
#define HOSTCB_EXPECT(cond, message)                                                          \
  ((cond) ? (void)0                                                                           \
          : ::hostcb::report_failure(__FILE__, __LINE__,                                      \
                                     std::string("expected ") + #cond + ": " + (message)))
