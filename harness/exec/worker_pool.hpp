// Up to ExecutionOptions::workers worker processes side by side, each with its own CUDA
// context, over the jobs of a plan that may run side by side: each pool thread starts a worker on a device and
// feeds it the next job for that device from one shared queue as it finishes one, until
// the queue is empty. A worker that dies takes the blame for the job in hand; the jobs
// it held beyond that go to its thread's next worker, which is already started: once a
// worker runs a scenario, its standby starts (adapters loaded, context made) and waits for
// commands.
// With one worker this is the sequential run: consecutive jobs on one device share a worker.
#pragma once
#include <cstddef>
#include <vector>

#include "exec/collector.hpp"
#include "exec/supervisor.hpp"

namespace hostcb {

// Runs jobs[batch[...]] until each has a result, or a stop or an interrupt (the jobs left
// then have none: the caller skips them). `workers` is at most batch.size() in effect;
// `standby`: each worker gets one (when ExecutionOptions::standby too).
// `in_place`, when given, takes each job that must run alone (runs_alone) where the queue
// reaches it, instead of a worker: the pool's worker waits, idle, until it returns (-j 1 in
// plan order: exec/supervisor.cpp).
using InPlace = std::function<void(std::size_t job)>;
void run_pool(const std::vector<Job>& jobs, const std::vector<std::size_t>& batch, unsigned workers, bool standby,
              const ExecutionOptions& options, Collector& out, const InPlace& in_place = nullptr);

}  // namespace hostcb
