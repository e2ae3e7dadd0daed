#include "exec/collector.hpp"

namespace hostcb {

Collector::Collector(std::size_t size, const ResultCallback& in_order, const ExecutionOptions& options)
    : slots_(size), in_order_(in_order), options_(options) {}

void Collector::started(std::size_t job) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (options_.on_start) options_.on_start(job);
}

bool Collector::has(std::size_t job) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slots_[job].has_value();
}

void Collector::set(std::size_t job, Result result) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (options_.on_arrival) options_.on_arrival(result, job);
  slots_[job] = std::move(result);
  for (; next_ < slots_.size() && slots_[next_]; ++next_)
    if (in_order_) in_order_(*slots_[next_], next_);
}

void Collector::add_orphans(const OrphanCounts& orphans) {
  std::lock_guard<std::mutex> lock(mutex_);
  orphans_.add(orphans);
}

ExecutedPlan Collector::take() {
  ExecutedPlan out;
  for (auto& slot : slots_) out.results.push_back(std::move(*slot));
  out.orphans = std::move(orphans_);
  return out;
}

}  // namespace hostcb
