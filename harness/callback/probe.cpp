#include "callback/probe.hpp"

#include <algorithm>
#include <set>

#include "model/errors.hpp"
#include "callback/progress.hpp"

namespace hostcb {

Probe::Probe(std::size_t sites, std::uint64_t calls_per_site, std::size_t record_limit)
    : site_count_(sites),
      sites_(new Site[sites]),
      record_limit_(std::min<std::uint64_t>(record_limit, sites * calls_per_site + 64)),
      records_(new Call[record_limit_]) {
  for (std::size_t i = 0; i < sites; ++i) {
    sites_[i].index = static_cast<std::uint32_t>(i);
    sites_[i].expected = calls_per_site;
  }
}

std::uint64_t Probe::expected_total() const {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < site_count_; ++i) total += sites_[i].expected;
  return total;
}

void* Probe::stream_callback_user_data(std::size_t site, const void* stream) {
  sites_[site].stream_callback = true;
  sites_[site].stream = stream;
  return &sites_[site];
}

std::vector<int> Probe::callback_statuses() const {
  std::vector<int> seen;
  for (std::size_t i = 0; i < site_count_; ++i) {
    int status = sites_[i].status.load(std::memory_order_acquire);
    if (status != kNoStatus && std::find(seen.begin(), seen.end(), status) == seen.end()) seen.push_back(status);
  }
  return seen;
}

Probe::Site* Probe::site_for(void* user_data) noexcept {
  auto first = reinterpret_cast<std::uintptr_t>(sites_.get());
  auto p = reinterpret_cast<std::uintptr_t>(user_data);
  if (p < first || p >= first + site_count_ * sizeof(Site) || (p - first) % sizeof(Site) != 0) return nullptr;
  return reinterpret_cast<Site*>(p);
}

Probe::Site* Probe::armed_site(void* user_data, Probe*& probe) noexcept {
  ActiveScenario* scenario = active_scenario();
  probe = scenario ? scenario->probe.load(std::memory_order_acquire) : nullptr;
  if (Site* site = probe ? probe->site_for(user_data) : nullptr) return site;
  // Behind a shared fault, the site may be a neighbour's: each counts its own calls.
  if (const std::vector<ActiveScenario*>* together = armed_together())
    for (ActiveScenario* member : *together)
      if (Probe* theirs = member->probe.load(std::memory_order_acquire))
        if (Site* site = theirs->site_for(user_data)) {
          if (member->judged.load(std::memory_order_acquire)) {
            count_orphan_event_of(member->id);
            probe = nullptr;
            return nullptr;
          }
          probe = theirs;
          return site;
        }
  if (!probe) {
    count_orphan_event();
    return nullptr;
  }
  probe->stray_.fetch_add(1, std::memory_order_relaxed);
  std::uintptr_t none = 0;
  probe->first_stray_.compare_exchange_strong(none, reinterpret_cast<std::uintptr_t>(user_data));
  return nullptr;
}

void Probe::entry(void* user_data) noexcept {
  Probe* probe = nullptr;
  if (Site* site = armed_site(user_data, probe)) probe->run_action(*site, probe->on_call(*site));
}

void Probe::entry_with_status(void* stream, int status, void* user_data) noexcept {
  Probe* probe = nullptr;
  Site* site = armed_site(user_data, probe);
  if (!site) return;
  std::int64_t launch = probe->on_call(*site);
  probe->check_stream_callback(*site, launch, stream, status);
  probe->run_action(*site, launch);
}

std::int64_t Probe::on_call(Site& site) noexcept {
  std::uint64_t launch = site.calls.fetch_add(1, std::memory_order_relaxed) + 1;
  std::uint64_t seq = total_.fetch_add(1, std::memory_order_relaxed);
  if (seq < record_limit_) records_[seq] = Call{site.index, launch, thread_token()};
  progress_cell().calls.store(static_cast<std::int64_t>(seq + 1), std::memory_order_relaxed);
  return static_cast<std::int64_t>(launch);
}

namespace {
std::string stream_name(const void* stream) { return stream ? str(stream) : std::string("NULL"); }
}  // namespace

// A stream callback must get back the stream it was enqueued on, and the status the
// scenario expects: success, or the sticky error of an earlier failure where one is due.
void Probe::check_stream_callback(Site& site, std::int64_t launch, const void* stream, int status) noexcept {
  stream_calls_.fetch_add(1, std::memory_order_relaxed);
  site.status.store(status, std::memory_order_release);
  const bool right_stream = site.stream_callback && stream == site.stream;
  if (!right_stream) wrong_streams_.fetch_add(1, std::memory_order_relaxed);
  if (right_stream && status == expected_status_) return;
  guarded_invoke(launch, HOSTCB_HERE, [&] {
    if (!site.stream_callback)
      report_failure(__FILE__, __LINE__,
                     str("[stream] a stream callback for host function #", site.index, " received stream ",
                         stream_name(stream), ", but the scenario enqueued no stream callback for it"));
    else if (!right_stream)
      report_failure(__FILE__, __LINE__,
                     str("[stream] stream callback for host function #", site.index, " received stream ",
                         stream_name(stream), "; it was enqueued on stream ", stream_name(site.stream)));
    if (status != expected_status_)
      report_failure(__FILE__, __LINE__,
                     str("[status] stream callback for host function #", site.index, " received status ", status,
                         "; expected ", expected_status_, expected_status_ == 0 ? " (success)" : ""));
  });
}

void Probe::run_action(Site& site, std::int64_t launch) noexcept {
  if (site.action) guarded_invoke(launch, site.action_site, [&] { site.action(launch); });
}

std::vector<Probe::Call> Probe::recorded_calls() const {
  std::uint64_t n = std::min<std::uint64_t>(total_calls(), record_limit_);
  return std::vector<Call>(records_.get(), records_.get() + n);
}

std::size_t Probe::distinct_threads() const {
  std::set<std::uint64_t> threads;
  for (const auto& call : recorded_calls()) threads.insert(call.thread);
  return threads.size();
}

bool Probe::any_call_on_thread(std::uint64_t thread) const {
  for (const auto& call : recorded_calls())
    if (call.thread == thread) return true;
  return false;
}

std::vector<std::string> Probe::verify() const {
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < site_count_; ++i) {
    std::uint64_t calls = site_calls(i);
    if (calls != sites_[i].expected)
      problems.push_back(str("[count] host function #", i, " was called ", calls, " times; expected exactly ",
                             sites_[i].expected));
  }
  if (total_calls() != expected_total())
    problems.push_back(str("[count] host functions were called ", total_calls(), " times in all; expected exactly ",
                           expected_total()));
  if (std::uint64_t strays = stray_calls())
    problems.push_back(str("[userdata] ", strays, " call(s) carried a userData that is no host function of this scenario (first: ",
                           reinterpret_cast<void*>(first_stray_.load()), ")"));
  if (expect_in_order_) {
    // With k sites called in a chain, call number s must be site s % k of round s / k + 1.
    auto calls = recorded_calls();
    for (std::size_t s = 0; s < calls.size(); ++s) {
      std::size_t want_site = s % site_count_;
      std::uint64_t want_launch = s / site_count_ + 1;
      if (calls[s].site != want_site || calls[s].launch != want_launch) {
        problems.push_back(str("[order] call #", s + 1, " was host function #", calls[s].site, " (its call ",
                               calls[s].launch, "); expected host function #", want_site, " (its call ",
                               want_launch, ")"));
        break;  // one out-of-order call shifts all later ones: report the first
      }
    }
  }
  return problems;
}

}  // namespace hostcb
