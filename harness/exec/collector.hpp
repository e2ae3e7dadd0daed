// Where the results of a plan meet, whatever ran them: filled in any order, from any
// thread (the pool's workers), handed on in job order, one at a time. Orphans the
// workers counted are gathered here too.
#pragma once
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "exec/supervisor.hpp"

namespace hostcb {

class Collector {
 public:
  // `on_arrival` sees each result as it comes (any order), `in_order` in job order, and
  // `on_start` each job that starts; all three are called under one lock.
  Collector(std::size_t size, const ResultCallback& in_order, const ExecutionOptions& options);
  void started(std::size_t job);
  bool has(std::size_t job) const;
  void set(std::size_t job, Result result);
  void add_orphans(const OrphanCounts& orphans);
  ExecutedPlan take();

 private:
  mutable std::mutex mutex_;
  std::vector<std::optional<Result>> slots_;
  const ResultCallback& in_order_;
  const ExecutionOptions& options_;
  std::size_t next_ = 0;
  OrphanCounts orphans_;
};

}  // namespace hostcb
