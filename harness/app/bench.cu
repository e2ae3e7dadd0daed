#include "app/bench.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

#include "cuda/driver_api.hpp"
#include "model/errors.hpp"
#include "cuda/forwarding.hpp"
#include "cuda/graph_api.hpp"
#include "callback/probe.hpp"

namespace hostcb {

namespace {

// Throughput rounds per arm, alternating which arm goes first; round r of one arm and
// round r of the other form a pair for the throughput interval.
constexpr int kRounds = 10;
constexpr std::size_t kWide = 16;  // host nodes in the chain and parallel paths

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Entry timestamps in call order; the first thing a callback does (baseline) or the
// first thing after the harness's bookkeeping (measured).
struct Stamps {
  std::vector<std::int64_t> entry;
  std::atomic<std::uint64_t> next{0};
  void stamp() {
    std::uint64_t i = next.fetch_add(1, std::memory_order_relaxed);
    if (i < entry.size()) entry[i] = now_ns();
  }
};
void bare_stamp(void* stamps) { static_cast<Stamps*>(stamps)->stamp(); }
void bare_nothing(void*) {}
void CUDART_CB bare_stream_callback_rt(cudaStream_t, cudaError_t, void* stamps) { bare_stamp(stamps); }
void CUDA_CB bare_stream_callback_drv(CUstream, CUresult, void* stamps) { bare_stamp(stamps); }

__global__ void tiny_kernel(int* sink) {
  if (sink) *sink += 1;
}

// The raw calls of the baseline: no GraphApi, no forwarding layer.
struct Raw {
  bool driver;
  void host_func(cudaStream_t s, HostFn fn, void* ud) const {
    if (driver) HOSTCB_CU(driver_api().cuLaunchHostFunc(s, fn, ud));
    else HOSTCB_CUDA(cudaLaunchHostFunc(s, fn, ud));
  }
  void stream_callback(cudaStream_t s, void* stamps) const {
    if (driver) HOSTCB_CU(driver_api().cuStreamAddCallback(s, bare_stream_callback_drv, stamps, 0));
    else HOSTCB_CUDA(cudaStreamAddCallback(s, bare_stream_callback_rt, stamps, 0));
  }
  void launch(cudaGraphExec_t e, cudaStream_t s) const {
    if (driver) HOSTCB_CU(driver_api().cuGraphLaunch(e, s));
    else HOSTCB_CUDA(cudaGraphLaunch(e, s));
  }
  void sync(cudaStream_t s) const {
    if (driver) HOSTCB_CU(driver_api().cuStreamSynchronize(s));
    else HOSTCB_CUDA(cudaStreamSynchronize(s));
  }
};

// One arm of a path: how to enqueue one unit of work, and its stamps.
struct Arm {
  std::function<void()> launch;
  std::function<void()> sync;
  Stamps stamps;
};

struct Timing {
  std::vector<double> latency_us;
  std::vector<double> throughput;
};

// Latency, n samples per arm, the arms alternating launch by launch (A B B A ...): with a
// sync after each launch, latency is mostly the callback thread waking up, which drifts;
// neighbouring samples see the same conditions, so the drift cancels out of the ratio.
void measure_latency(Arm& a, Arm& b, int n, Timing& out_a, Timing& out_b) {
  for (Arm* arm : {&a, &b}) {
    arm->stamps.entry.assign(static_cast<std::size_t>(n), 0);
    arm->stamps.next = 0;
  }
  std::vector<std::int64_t> start_a(static_cast<std::size_t>(n)), start_b(static_cast<std::size_t>(n));
  auto one = [](Arm& arm, std::int64_t& start) {
    start = now_ns();
    arm.launch();
    arm.sync();
  };
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      one(a, start_a[i]);
      one(b, start_b[i]);
    } else {
      one(b, start_b[i]);
      one(a, start_a[i]);
    }
  }
  for (int i = 0; i < n; ++i) {
    out_a.latency_us.push_back((a.stamps.entry[i] - start_a[i]) / 1000.0);
    out_b.latency_us.push_back((b.stamps.entry[i] - start_b[i]) / 1000.0);
  }
}

// Pipelined launches per second for n launches (one sync).
void measure_throughput(Arm& arm, int n, Timing& out) {
  arm.stamps.next = 0;
  std::int64_t t0 = now_ns();
  for (int i = 0; i < n; ++i) arm.launch();
  arm.sync();
  out.throughput.push_back(n / ((now_ns() - t0) / 1e9));
}

// A path: both arms built by `build`, measured in alternating rounds.
struct PathSpec {
  std::string path;
  std::string forward;
  // Fills the arms. Host functions go through `probe` (measured) or bare (baseline).
  std::function<void(Arm& measured, Arm& baseline, Probe& probe, std::vector<std::unique_ptr<void, void (*)(void*)>>&)>
      build;
  std::size_t sites;
};

class Bench {
 public:
  Bench(const BenchOptions& options, BenchReport& report) : options_(options), report_(report) {}

  void path(const std::string& api_name, PathSpec spec) {
    const int per_round = std::max(1, options_.launches / kRounds);
    const int warmup = std::max(1, options_.warmup / 2);
    const std::uint64_t launches_per_arm = static_cast<std::uint64_t>(2 * warmup + 2 * per_round * kRounds);
    ArmedProbe armed("bench/" + spec.path, spec.sites, launches_per_arm);
    Probe& probe = armed.probe();
    Arm measured, baseline;
    std::vector<std::unique_ptr<void, void (*)(void*)>> keep;
    spec.build(measured, baseline, probe, keep);
    // The measured arm's timestamp comes after the probe's bookkeeping, where a user's
    // callback would start.
    probe.set_action(0, HOSTCB_HERE, [&](std::int64_t) { measured.stamps.stamp(); });

    Timing warm, m, b;
    measure_latency(measured, baseline, warmup, warm, warm);
    measure_throughput(measured, warmup, warm);
    measure_throughput(baseline, warmup, warm);
    measure_latency(measured, baseline, per_round * kRounds, m, b);
    for (int r = 0; r < kRounds; ++r) {  // throughput in rounds, alternating which goes first
      measure_throughput(r % 2 ? measured : baseline, per_round, r % 2 ? m : b);
      measure_throughput(r % 2 ? baseline : measured, per_round, r % 2 ? b : m);
    }
    HOSTCB_CUDA(cudaDeviceSynchronize());
    for (const auto& problem : probe.verify()) report_.problems.push_back(spec.path + " (" + api_name + "): " + problem);
    for (const auto& failure : armed.channel().drain().kept) report_.problems.push_back(failure.message);
    PathResult result;
    result.path = spec.path;
    result.api = api_name;
    result.forward = spec.forward;
    result.latency = Distribution::of(m.latency_us);
    result.baseline_latency = Distribution::of(b.latency_us);
    result.throughput = median(m.throughput);
    result.baseline_throughput = median(b.throughput);
    result.p50_interval = paired_median_ratio(m.latency_us, b.latency_us, kBootstrapSeed,
                                              bootstrap_resamples_for(m.latency_us.size()));
    result.throughput_interval = paired_median_ratio(b.throughput, m.throughput);
    report_.paths.push_back(result);
  }

 private:
  const BenchOptions& options_;
  BenchReport& report_;
};

// Keeps CUDA objects alive for the duration of a path (type-erased RAII).
template <class Handle>
void keep_alive(std::vector<std::unique_ptr<void, void (*)(void*)>>& keep, Handle handle) {
  keep.emplace_back(new Handle(std::move(handle)), [](void* p) { delete static_cast<Handle*>(p); });
}

// A graph of `k` host functions after each other (chain) or side by side.
Graph host_node_graph(const GraphApi& api, Forwarder& layer, std::size_t k, bool chain, std::function<HostFn(std::size_t)> fn,
                      std::function<void*(std::size_t)> ud) {
  Graph graph = api.create_graph();
  std::vector<cudaGraphNode_t> previous;
  for (std::size_t i = 0; i < k; ++i) {
    cudaGraphNode_t node = layer.add_host_node(api, graph.get(), chain ? previous : std::vector<cudaGraphNode_t>{}, fn(i), ud(i));
    previous = {node};
  }
  return graph;
}

void run_paths(Bench& bench, const std::string& api_name) {
  const GraphApi& api = graph_api(api_name);
  const Raw raw{api_name == "driver"};
  std::vector<std::string> layers;
  for (const auto& name : forwarder_names())
    if (name != "oneshot") layers.push_back(name);  // the bug pattern is not a layer to time

  // Both arms on one stream: a stream's place in the hardware holds for a whole run, so two
  // streams would put a run-level difference into the ratio. The arms never overlap: each
  // launch is synchronized, and throughput rounds run one arm at a time.
  auto stream_arms = [&](Arm& m, Arm& b, std::vector<std::unique_ptr<void, void (*)(void*)>>& keep) {
    Stream shared = make_stream();
    cudaStream_t s = shared.get();
    m.sync = [&api, s] { api.synchronize(s); };
    b.sync = [raw, s] { raw.sync(s); };
    keep_alive(keep, std::move(shared));
    return std::make_pair(s, s);
  };

  bench.path(api_name, {"stream_callback", "-", [&](Arm& m, Arm& b, Probe& probe, auto& keep) {
                          const auto lanes = stream_arms(m, b, keep);
                          cudaStream_t rm = lanes.first, rb = lanes.second;
                          void* site = probe.stream_callback_user_data(0, rm);
                          m.launch = [&api, rm, site] { api.add_stream_callback(rm, Probe::status_fn(), site); };
                          b.launch = [raw, rb, &b] { raw.stream_callback(rb, &b.stamps); };
                        }, 1});

  for (const auto& layer_name : layers) {
    Forwarder& layer = forwarder(layer_name);
    bench.path(api_name, {"stream_host_func", layer_name, [&](Arm& m, Arm& b, Probe& probe, auto& keep) {
                            const auto lanes = stream_arms(m, b, keep);
                          cudaStream_t rm = lanes.first, rb = lanes.second;
                            m.launch = [&api, &layer, rm, &probe] {
                              layer.launch_host_func(api, rm, Probe::host_fn(), probe.user_data(0));
                            };
                            b.launch = [raw, rb, &b] { raw.host_func(rb, bare_stamp, &b.stamps); };
                          }, 1});

    // Graph paths: the measured graph goes through the layer; the raw one is built directly.
    auto graph_path = [&](const std::string& name, std::size_t sites, auto build_measured, auto build_raw) {
      bench.path(api_name, {name, layer_name, [&, build_measured, build_raw](Arm& m, Arm& b, Probe& probe, auto& keep) {
                              const auto lanes = stream_arms(m, b, keep);
                          cudaStream_t rm = lanes.first, rb = lanes.second;
                              Graph gm = build_measured(rm, probe);
                              Graph gb = build_raw(rb, &b.stamps);
                              GraphExec em = api.instantiate(gm.get()), eb = api.instantiate(gb.get());
                              cudaGraphExec_t xm = em.get(), xb = eb.get();
                              m.launch = [&api, xm, rm] { api.launch(xm, rm); };
                              b.launch = [raw, xb, rb] { raw.launch(xb, rb); };
                              keep_alive(keep, std::move(em));
                              keep_alive(keep, std::move(eb));
                              keep_alive(keep, std::move(gm));
                              keep_alive(keep, std::move(gb));
                            }, sites});
    };
    auto probe_fn = [](std::size_t) { return Probe::host_fn(); };
    auto first_stamps = [](void* stamps) {
      return [stamps](std::size_t i) -> HostFn { return i == 0 ? bare_stamp : bare_nothing; };
    };
    graph_path("graph_capture", 1,
               [&](cudaStream_t s, Probe& probe) {
                 return capture_graph(api, s, CaptureMode::global,
                                      [&] { layer.launch_host_func(api, s, Probe::host_fn(), probe.user_data(0)); });
               },
               [&](cudaStream_t s, Stamps* stamps) {
                 return capture_graph(api, s, CaptureMode::global, [&] { api.launch_host_func(s, bare_stamp, stamps); });
               });
    graph_path("between_kernels", 1,
               [&](cudaStream_t s, Probe& probe) {
                 return capture_graph(api, s, CaptureMode::global, [&] {
                   tiny_kernel<<<1, 1, 0, s>>>(nullptr);
                   layer.launch_host_func(api, s, Probe::host_fn(), probe.user_data(0));
                   tiny_kernel<<<1, 1, 0, s>>>(nullptr);
                   HOSTCB_CUDA(cudaGetLastError());
                 });
               },
               [&](cudaStream_t s, Stamps* stamps) {
                 return capture_graph(api, s, CaptureMode::global, [&] {
                   tiny_kernel<<<1, 1, 0, s>>>(nullptr);
                   api.launch_host_func(s, bare_stamp, stamps);
                   tiny_kernel<<<1, 1, 0, s>>>(nullptr);
                   HOSTCB_CUDA(cudaGetLastError());
                 });
               });
    if (!layer.has(LayerOp::add_host_node)) continue;
    for (auto [name, k, chain] : {std::make_tuple(std::string("graph_node"), std::size_t{1}, true),
                                  std::make_tuple("chain_" + std::to_string(kWide), kWide, true),
                                  std::make_tuple("parallel_" + std::to_string(kWide), kWide, false)}) {
      graph_path(name, k,
                 [&, k = k, chain = chain](cudaStream_t, Probe& probe) {
                   return host_node_graph(api, layer, k, chain, probe_fn, [&](std::size_t i) { return probe.user_data(i); });
                 },
                 [&, k = k, chain = chain](cudaStream_t, Stamps* stamps) {
                   return host_node_graph(api, forwarder("direct"), k, chain, first_stamps(stamps),
                                          [stamps](std::size_t) -> void* { return stamps; });
                 });
    }
  }
}

// Pipelined microseconds per launch of `exec` on `stream`, over n launches.
double per_launch_us(cudaGraphExec_t exec, cudaStream_t stream, int n) {
  std::int64_t t0 = now_ns();
  for (int i = 0; i < n; ++i) HOSTCB_CUDA(cudaGraphLaunch(exec, stream));
  HOSTCB_CUDA(cudaStreamSynchronize(stream));
  return (now_ns() - t0) / 1000.0 / n;
}

void run_series(BenchReport& report, bool quick) {
  const GraphApi& api = graph_api("runtime");
  Forwarder& direct = forwarder("direct");
  Stream stream = make_stream();

  Series chain{"chain", "host nodes in a chain", "us per node"};
  for (std::size_t k : quick ? std::vector<std::size_t>{1, 10, 100} : std::vector<std::size_t>{1, 10, 100, 1000, 10000}) {
    int n = static_cast<int>(std::max<std::size_t>(5, 20000 / k));
    ArmedProbe armed("bench/series/chain", k, static_cast<std::uint64_t>(n + 1));
    Probe& probe = armed.probe();
    Graph measured = host_node_graph(api, direct, k, true, [](std::size_t) { return Probe::host_fn(); },
                                     [&](std::size_t i) { return probe.user_data(i); });
    Graph raw = host_node_graph(api, direct, k, true, [](std::size_t) -> HostFn { return bare_nothing; },
                                [](std::size_t) -> void* { return nullptr; });
    GraphExec em = api.instantiate(measured.get()), eb = api.instantiate(raw.get());
    per_launch_us(em.get(), stream.get(), 1);  // warm-up, counted by the probe
    per_launch_us(eb.get(), stream.get(), 1);
    double us = per_launch_us(em.get(), stream.get(), n), base = per_launch_us(eb.get(), stream.get(), n);
    chain.points.push_back({static_cast<double>(k), us / k, base / k});
    for (const auto& problem : probe.verify()) report.problems.push_back("chain series: " + problem);
  }
  report.series.push_back(chain);

  Series streams{"streams", "streams, each replaying its own one-host-node graph", "us per launch"};
  for (int s : quick ? std::vector<int>{1, 4} : std::vector<int>{1, 2, 4, 8, 16, 32, 64}) {
    const int n = quick ? 20 : 200;
    ArmedProbe armed("bench/series/streams", static_cast<std::size_t>(s), static_cast<std::uint64_t>(n));
    Probe& probe = armed.probe();
    std::vector<Stream> lanes;
    std::vector<GraphExec> measured, raw;
    for (int i = 0; i < s; ++i) {
      lanes.push_back(make_stream());
      Graph gm = capture_graph(api, lanes.back().get(), CaptureMode::global,
                               [&] { api.launch_host_func(lanes.back().get(), Probe::host_fn(), probe.user_data(i)); });
      Graph gb = capture_graph(api, lanes.back().get(), CaptureMode::global,
                               [&] { api.launch_host_func(lanes.back().get(), bare_nothing, nullptr); });
      measured.push_back(api.instantiate(gm.get()));
      raw.push_back(api.instantiate(gb.get()));
    }
    auto time_all = [&](std::vector<GraphExec>& execs) {
      std::int64_t t0 = now_ns();
      for (int round = 0; round < n; ++round)
        for (int i = 0; i < s; ++i) HOSTCB_CUDA(cudaGraphLaunch(execs[i].get(), lanes[i].get()));
      HOSTCB_CUDA(cudaDeviceSynchronize());
      return (now_ns() - t0) / 1000.0 / (static_cast<double>(n) * s);
    };
    double base = time_all(raw), us = time_all(measured);
    streams.points.push_back({static_cast<double>(s), us, base});
    for (const auto& problem : probe.verify()) report.problems.push_back("streams series: " + problem);
  }
  report.series.push_back(streams);
}

double empty_graph_launch_us(int launches) {
  Stream stream = make_stream();
  cudaGraph_t raw_graph = nullptr;
  HOSTCB_CUDA(cudaGraphCreate(&raw_graph, 0));
  Graph graph(raw_graph);
  cudaGraphNode_t node = nullptr;
  HOSTCB_CUDA(cudaGraphAddEmptyNode(&node, graph.get(), nullptr, 0));
  GraphExec exec = graph_api("runtime").instantiate(graph.get());
  per_launch_us(exec.get(), stream.get(), std::max(1, launches / 10));  // warm-up
  return per_launch_us(exec.get(), stream.get(), launches);
}

}  // namespace

BenchReport run_bench(const BenchOptions& options, Environment environment) {
  BenchReport report;
  report.environment = std::move(environment);
  report.options = options;
  HOSTCB_CUDA(cudaSetDevice(options.device));
  HOSTCB_CUDA(cudaFree(nullptr));
  Bench bench(options, report);
  for (const char* api : {"runtime", "driver"}) run_paths(bench, api);
  report.empty_graph_launch_us = empty_graph_launch_us(std::max(100, options.launches));
  run_series(report, options.quick);
  return report;
}

}  // namespace hostcb
