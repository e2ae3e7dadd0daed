#include "callback/active_scenario.hpp"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "callback/kept.hpp"

namespace hostcb {

namespace {
std::atomic<ActiveScenario*> g_active{nullptr};
std::atomic<std::uint64_t> g_orphans{0};
// The scenario activated last, and orphans by the scenario they are blamed on. Only the
// activation and orphans take the lock: never the path of a call that found its probe.
std::mutex g_orphan_mutex;
std::string g_last_activated;
std::vector<std::pair<std::string, std::uint64_t>> g_orphans_by_scenario;

void blame_orphans(const std::string& scenario_id, std::uint64_t count) {  // holding g_orphan_mutex
  for (auto& [id, n] : g_orphans_by_scenario)
    if (id == scenario_id) {
      n += count;
      return;
    }
  g_orphans_by_scenario.emplace_back(scenario_id, count);
}
std::atomic<std::uint64_t> g_next_thread_token{1};
std::atomic<bool> g_echo_failures{false};
constexpr std::int64_t kNoCallback = INT64_MIN;
thread_local std::int64_t t_callback_launch = kNoCallback;
}  // namespace

ActiveScenario* active_scenario() noexcept { return g_active.load(std::memory_order_acquire); }

ScenarioActivation::ScenarioActivation(ActiveScenario& scenario) {
  scenario.runner_thread = thread_token();
  ActiveScenario* expected = nullptr;
  if (!g_active.compare_exchange_strong(expected, &scenario, std::memory_order_acq_rel))
    throw std::logic_error("a scenario is already active: " + expected->id);
  std::lock_guard<std::mutex> lock(g_orphan_mutex);
  g_last_activated = scenario.id;
}

ScenarioActivation::~ScenarioActivation() { g_active.store(nullptr, std::memory_order_release); }

namespace {
std::atomic<const std::vector<ActiveScenario*>*> g_armed_together{nullptr};
}  // namespace

ArmedTogether::ArmedTogether(std::vector<ActiveScenario*> members)
    : members_(keep_for_process<std::vector<ActiveScenario*>>(std::move(members))) {
  const std::vector<ActiveScenario*>* expected = nullptr;
  if (!g_armed_together.compare_exchange_strong(expected, &members_, std::memory_order_acq_rel))
    throw std::logic_error("scenarios are already armed together");
}

ArmedTogether::~ArmedTogether() { g_armed_together.store(nullptr, std::memory_order_release); }

const std::vector<ActiveScenario*>* armed_together() noexcept { return g_armed_together.load(std::memory_order_acquire); }

std::uint64_t thread_token() noexcept {
  thread_local std::uint64_t token = g_next_thread_token.fetch_add(1, std::memory_order_relaxed);
  return token;
}

std::uint64_t orphan_events() noexcept { return g_orphans.load(std::memory_order_relaxed); }
namespace {
// Counts one orphan and blames it on `scenario_id`, or on the scenario activated last.
void count_and_blame(const std::string* scenario_id) noexcept {
  g_orphans.fetch_add(1, std::memory_order_relaxed);
  try {
    std::lock_guard<std::mutex> lock(g_orphan_mutex);
    blame_orphans(scenario_id ? *scenario_id : g_last_activated, 1);
  } catch (...) {
    // out of memory: counted, not blamed
  }
}
}  // namespace

void count_orphan_event() noexcept { count_and_blame(nullptr); }
void count_orphan_event_of(const std::string& scenario_id) noexcept { count_and_blame(&scenario_id); }

std::vector<std::pair<std::string, std::uint64_t>> orphan_events_by_scenario() {
  std::lock_guard<std::mutex> lock(g_orphan_mutex);
  return g_orphans_by_scenario;
}

OrphanCounts OrphanTally::take() {
  OrphanCounts fresh;
  for (const auto& [id, count] : orphan_events_by_scenario()) {
    std::uint64_t& taken = taken_[id];
    if (count > taken) fresh.add(id, count - taken);
    taken = count;
  }
  return fresh;
}

CallbackLaunchScope::CallbackLaunchScope(std::int64_t launch) noexcept : previous_(t_callback_launch) {
  t_callback_launch = launch;
}
CallbackLaunchScope::~CallbackLaunchScope() { t_callback_launch = previous_; }

std::string project_relative(const char* file) {
  static const std::string source_dir = HOSTCB_SOURCE_DIR "/";
  std::string path = file ? file : "?";
  if (path.compare(0, source_dir.size(), source_dir) == 0) path.erase(0, source_dir.size());
  return path;
}

void set_failure_echo(bool on) noexcept { g_echo_failures = on; }

void report_failure(const char* file, int line, const std::string& message) noexcept {
  ActiveScenario* scenario = active_scenario();
  if (!scenario) {
    count_orphan_event();
    return;
  }
  try {
    Failure failure;
    failure.scenario_id = scenario->id;
    bool in_callback = t_callback_launch != kNoCallback;
    failure.launch = in_callback ? t_callback_launch : scenario->runner_launch.load(std::memory_order_relaxed);
    std::uint64_t token = thread_token();
    // A host function's failure names its thread "callback#N"; one from another thread of
    // the scenario's own (concurrency launches from several) "thread#N".
    failure.thread = token == scenario->runner_thread ? "runner"
                     : in_callback                    ? "callback#" + std::to_string(token)
                                                      : "thread#" + std::to_string(token);
    failure.file = project_relative(file);
    failure.line = line;
    failure.message = message;
    if (g_echo_failures.load(std::memory_order_relaxed)) {
      std::string text = "hostcb failure: [launch " + std::to_string(failure.launch) + "] [" + failure.thread + "] " +
                         failure.file + ":" + std::to_string(failure.line) + ": " + message + "\n";
      std::fputs(text.c_str(), stderr);  // one write per line; stderr is unbuffered
    }
    scenario->channel.push(std::move(failure));
  } catch (...) {
    count_orphan_event();  // could not even build the entry (out of memory)
  }
}

}  // namespace hostcb
