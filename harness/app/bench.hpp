// hostcb bench: what host callbacks cost, next to a raw baseline measured in the same run.
//
// Each path is measured twice, interleaved round by round: through the harness (the
// forwarding layer, the probe's bookkeeping, then a timestamp where a user's callback
// would start) and raw (the same CUDA calls, a bare function that takes the timestamp
// at once). Latency: from just before the launch call to that timestamp, with a sync
// after each launch, the arms alternating launch by launch. Throughput: many launches in
// flight, one sync, in rounds that alternate the arms. The bar is judged on an interval:
// app/bench_stats.hpp states the rule.
#pragma once
#include <string>
#include <vector>

#include "app/bench_stats.hpp"
#include "model/environment.hpp"

namespace hostcb {

struct PathResult {
  std::string path;     // stream_host_func, stream_callback, graph_capture, graph_node, chain_16, parallel_16, between_kernels
  std::string api;      // runtime | driver
  std::string forward;  // direct, graph_owned, an adapter ("-" where no layer is involved)
  Distribution latency, baseline_latency;
  double throughput = 0, baseline_throughput = 0;  // launches per second
  // Both ratios read as a cost: above 1, the harness arm is slower. Throughput's is raw
  // over harness (launches per second), so below 1 the harness arm ran faster.
  RatioInterval p50_interval;         // harness p50 / raw p50 over the paired launches
  RatioInterval throughput_interval;  // raw / harness over the paired rounds
  double p50_ratio() const { return baseline_latency.p50 > 0 ? latency.p50 / baseline_latency.p50 : 0; }
  double throughput_ratio() const { return throughput > 0 ? baseline_throughput / throughput : 0; }
  // The interval the bar is judged on; without one (no samples), the point ratio.
  RatioInterval bar_interval() const {
    return p50_interval.resamples > 0 ? p50_interval : RatioInterval{p50_ratio(), p50_ratio(), p50_ratio(), 0};
  }
};

struct SeriesPoint {
  double x = 0;
  double us = 0, baseline_us = 0;  // per node (chain) or per launch (streams)
};

struct Series {
  std::string name, x_label, y_label;
  std::vector<SeriesPoint> points;
};

struct BenchOptions {
  int device = 0;
  int launches = 2000;  // per path and arm, split into rounds
  int warmup = 200;
  bool quick = false;   // short series (a smoke run)
};

struct BenchReport {
  Environment environment;
  BenchOptions options;
  std::vector<PathResult> paths;
  double empty_graph_launch_us = 0;  // a one-empty-node graph launch, pipelined
  std::vector<Series> series;
  std::vector<std::string> problems;  // wrong call counts: the numbers are not to be trusted
};

// Needs a usable GPU; throws CudaError otherwise. Writers: app/bench_writer.hpp.
BenchReport run_bench(const BenchOptions& options, Environment environment);

}  // namespace hostcb
