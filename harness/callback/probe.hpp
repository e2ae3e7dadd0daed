// The callback probe: counts every host-function call exactly, and records who was called,
// with which userData, on which thread, in which order.
//
// Each host function a scenario enqueues is a Site; the Site's address is the userData
// CUDA carries. The C entry point never dereferences a userData it cannot vouch for: it
// checks the pointer against the active probe's sites first, so a wrapper that passes a
// stale or foreign pointer is counted as a stray call instead of crashing the harness.
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

  // Every way the calls differ from what was expected; empty when exact. Read only once
  // the device is idle.
  std::vector<std::string> verify() const;
  std::vector<Call> recorded_calls() const;
  std::size_t distinct_threads() const;
  bool any_call_on_thread(std::uint64_t thread) const;

  // The C entry CUDA calls. Also used by stream-callback adapters, which pass the status
  // the callback received (0 = success; anything else is reported as a failure).
  static void entry(void* user_data) noexcept;
  static void entry_with_status(void* user_data, int status) noexcept;

 private:
  struct Site {
    std::uint32_t index = 0;
    std::atomic<std::uint64_t> calls{0};
    std::uint64_t expected = 0;
    Action action;
    SourceLocation action_site{__FILE__, __LINE__};
  };
  Site* site_for(void* user_data) noexcept;
  void on_call(Site& site, int status) noexcept;

  std::size_t site_count_;
  std::unique_ptr<Site[]> sites_;  // stable addresses: they are the userData
  std::size_t record_limit_;
  std::unique_ptr<Call[]> records_;
  std::atomic<std::uint64_t> total_{0};
  std::atomic<std::uint64_t> stray_{0};
  std::atomic<std::uintptr_t> first_stray_{0};
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
