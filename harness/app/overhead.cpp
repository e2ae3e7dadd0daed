#include "app/overhead.hpp"

#include "app/bench_stats.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>

#include "cuda/cuda_handles.hpp"
#include "cuda/graph_api.hpp"
#include "callback/probe.hpp"

namespace hostcb {

namespace {

void bare_host_fn(void* counter) { static_cast<std::atomic<std::uint64_t>*>(counter)->fetch_add(1, std::memory_order_relaxed); }

// Per-launch microseconds for `launches` launches of `exec`.
double time_launches(cudaGraphExec_t exec, cudaStream_t stream, int launches, bool sync_each) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < launches; ++i) {
    HOSTCB_CUDA(cudaGraphLaunch(exec, stream));
    if (sync_each) HOSTCB_CUDA(cudaStreamSynchronize(stream));
  }
  HOSTCB_CUDA(cudaStreamSynchronize(stream));
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / launches;
}

}  // namespace

OverheadReport measure_overhead(int device, int launches_per_round, int rounds) {
  HOSTCB_CUDA(cudaSetDevice(device));
  const GraphApi& api = graph_api("runtime");
  const bool modes[] = {false, true};
  // Every launch below (warm-up included) calls the probe once.
  const std::uint64_t probe_calls = 2ull * (rounds + 1) * launches_per_round;

  ArmedProbe armed("overhead", 1, probe_calls);
  Probe& probe = armed.probe();
  std::atomic<std::uint64_t> bare_calls{0};

  Stream stream = make_stream();
  Graph bare_graph = capture_graph(api, stream.get(), CaptureMode::global,
                                   [&] { api.launch_host_func(stream.get(), bare_host_fn, &bare_calls); });
  Graph probe_graph = capture_graph(api, stream.get(), CaptureMode::global,
                                    [&] { api.launch_host_func(stream.get(), Probe::host_fn(), probe.user_data(0)); });
  GraphExec bare = api.instantiate(bare_graph.get());
  GraphExec probed = api.instantiate(probe_graph.get());

  OverheadReport report;
  for (bool sync_each : modes) {
    time_launches(bare.get(), stream.get(), launches_per_round, sync_each);  // warm-up
    time_launches(probed.get(), stream.get(), launches_per_round, sync_each);
    std::vector<double> bare_us, harness_us;
    for (int r = 0; r < rounds; ++r) {
      // Alternate which goes first, so neither always runs on a warmer machine.
      if (r % 2 == 0) {
        bare_us.push_back(time_launches(bare.get(), stream.get(), launches_per_round, sync_each));
        harness_us.push_back(time_launches(probed.get(), stream.get(), launches_per_round, sync_each));
      } else {
        harness_us.push_back(time_launches(probed.get(), stream.get(), launches_per_round, sync_each));
        bare_us.push_back(time_launches(bare.get(), stream.get(), launches_per_round, sync_each));
      }
    }
    report.rows.push_back({sync_each ? "sync_each" : "pipelined", median(bare_us), median(harness_us)});
  }
  HOSTCB_CUDA(cudaDeviceSynchronize());
  report.problems = probe.verify();
  if (bare_calls.load() != probe_calls)
    report.problems.push_back("the bare host function was called " + std::to_string(bare_calls.load()) +
                              " times; expected " + std::to_string(probe_calls));
  for (auto& failure : armed.channel().drain().kept) report.problems.push_back(failure.message);
  return report;
}

}  // namespace hostcb
