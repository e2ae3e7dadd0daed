// The callback probe: counts every host-function call exactly, and records who was called,
// with which userData, on which thread, in which order.
//
// Each host function a scenario enqueues is a Site; the Site's address is the userData
// CUDA carries. The C entry point never dereferences a userData it cannot vouch for: it
// checks the pointer against the active probe's sites first, so a wrapper that passes a
// stale or foreign pointer is counted as a stray call instead of crashing the harness.
// A stream callback's other arguments are checked too: the stream must be the one it was
// enqueued on, the status the one the scenario expects.
//
// Every problem it reports starts with its check's tag ([count], [userdata], [order],
// [stream], [status]; docs/scenarios.md lists them all), so a report and the self-test can
// say which check caught what.
//
// The work per call is two relaxed atomic adds and one record store: a callback runs on
// the driver's only host-function thread and must stay short.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "callback/boundary.hpp"

namespace hostcb {

class Probe {
 public:
  // Optional behaviour of a site, run inside the guarded boundary after the call is
  // counted; `launch` is the 1-based number of this site's call.
  using Action = std::function<void(std::int64_t launch)>;

  struct Call {
    std::uint32_t site;
    std::uint64_t launch;  // 1-based call number of that site
    std::uint64_t thread;  // thread_token() of the calling thread
  };

  // `calls_per_site`: how often each site must be called in the whole scenario (one per
  // graph launch for a host node). Calls beyond `record_limit` are counted, not recorded.
  Probe(std::size_t sites, std::uint64_t calls_per_site, std::size_t record_limit = 1u << 16);

  static HostFn host_fn() { return &entry; }
  static StatusFn status_fn() { return &entry_with_status; }  // for stream callbacks
  void* user_data(std::size_t site) { return &sites_[site]; }
  // The userData of a stream callback for `site` enqueued on `stream`: its call must hand
  // back that stream. A stream callback reaching a site declared with no stream fails.
  void* stream_callback_user_data(std::size_t site, const void* stream);
  std::size_t sites() const { return site_count_; }
  // `where` (HOSTCB_HERE) is where an exception escaping the action is reported.
  void set_action(std::size_t site, SourceLocation where, Action action) {
    sites_[site].action = std::move(action);
    sites_[site].action_site = where;
  }
  // Each round of calls must visit the sites in index order (a chain in one stream).
  void expect_in_order() { expect_in_order_ = true; }
  // A site expected to be called another number of times than the rest (e.g. never).
  void expect_calls(std::size_t site, std::uint64_t calls) { sites_[site].expected = calls; }
  // The status stream callbacks must receive (default 0, success).
  void expect_callback_status(int status) { expected_status_ = status; }

  std::uint64_t total_calls() const { return total_.load(std::memory_order_acquire); }
  std::uint64_t site_calls(std::size_t site) const { return sites_[site].calls.load(std::memory_order_acquire); }
  std::uint64_t stray_calls() const { return stray_.load(std::memory_order_acquire); }
  std::uint64_t expected_total() const;
  // What the stream callbacks received, for the scenario's properties: each status seen
  // (in site order, once each), and how many calls carried a stream they were not enqueued on.
  std::vector<int> callback_statuses() const;
  std::uint64_t stream_callback_calls() const { return stream_calls_.load(std::memory_order_acquire); }
  std::uint64_t wrong_streams() const { return wrong_streams_.load(std::memory_order_acquire); }

  // Every way the calls differ from what was expected; empty when exact. Read only once
  // the device is idle.
  std::vector<std::string> verify() const;
  std::vector<Call> recorded_calls() const;
  std::size_t distinct_threads() const;
  bool any_call_on_thread(std::uint64_t thread) const;

  // The C entries CUDA calls: a host function's, and a stream callback's (handed to a
  // layer's add_stream_callback as is, so the arguments it gets are the layer's).
  static void entry(void* user_data) noexcept;
  static void entry_with_status(void* stream, int status, void* user_data) noexcept;

 private:
  static constexpr int kNoStatus = -1;
  struct Site {
    std::uint32_t index = 0;
    std::atomic<std::uint64_t> calls{0};
    std::uint64_t expected = 0;
    Action action;
    SourceLocation action_site{__FILE__, __LINE__};
    bool stream_callback = false;        // declared by stream_callback_user_data
    const void* stream = nullptr;        // the stream it was enqueued on
    std::atomic<int> status{kNoStatus};  // the status its last stream callback received
  };
  // The site `user_data` names in the armed probe, with that probe; nullptr when it names
  // none (counted as an orphan or a stray call).
  static Site* armed_site(void* user_data, Probe*& probe) noexcept;
  Site* site_for(void* user_data) noexcept;
  std::int64_t on_call(Site& site) noexcept;  // counts the call; returns its number
  void run_action(Site& site, std::int64_t launch) noexcept;
  void check_stream_callback(Site& site, std::int64_t launch, const void* stream, int status) noexcept;

  std::size_t site_count_;
  std::unique_ptr<Site[]> sites_;  // stable addresses: they are the userData
  std::size_t record_limit_;
  std::unique_ptr<Call[]> records_;
  std::atomic<std::uint64_t> total_{0};
  std::atomic<std::uint64_t> stray_{0};
  std::atomic<std::uintptr_t> first_stray_{0};
  std::atomic<std::uint64_t> stream_calls_{0};
  std::atomic<std::uint64_t> wrong_streams_{0};
  bool expect_in_order_ = false;
  int expected_status_ = 0;
};

// A probe armed outside the runner (bench, overhead): it activates a scenario of its own
// for its lifetime, in the one safe order, and disarms before the probe goes.
class ArmedProbe {
 public:
  ArmedProbe(std::string scenario_id, std::size_t sites, std::uint64_t calls_per_site)
      : active_(std::move(scenario_id)), activation_(active_), probe_(sites, calls_per_site) {
    active_.probe.store(&probe_, std::memory_order_release);
  }
  ~ArmedProbe() { active_.probe.store(nullptr, std::memory_order_release); }
  ArmedProbe(const ArmedProbe&) = delete;
  ArmedProbe& operator=(const ArmedProbe&) = delete;

  Probe& probe() { return probe_; }
  FailureChannel& channel() { return active_.channel; }

 private:
  ActiveScenario active_;
  ScenarioActivation activation_;
  Probe probe_;
};

}  // namespace hostcb
