// concurrency: many streams, each replaying its own graph, launched from 4 host threads at once.
//
// Stream i's graph holds one host function calling probe site i. Each thread builds the
// graphs of its streams (thread-local capture, or explicit nodes), waits for the others,
// then launches all of its graphs N times, checking every stream's count after each round.
// Every site must end at exactly N calls, and a failure or CUDA error from any thread
// reaches the report. With build=capture_by_layer, the layer's capture is first shown to
// be thread-local as asked (cases/layer_capture_mode.hpp). Recorded: whether the host functions of independent streams all ran
// on one thread (../shared/cuda-facts.md says they did on driver 580).
#include <atomic>
#include <exception>
#include <thread>

#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "model/errors.hpp"
#include "cases/host_chain.hpp"
#include "cases/layer_capture_mode.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

constexpr std::size_t kThreads = 4;

struct ThreadWork {
  std::vector<std::size_t> sites;  // = the streams this thread owns
  std::exception_ptr error;
};

void run_thread(ScenarioRun& run, const std::vector<Stream>& streams, ThreadWork& work, std::atomic<std::size_t>& ready,
                bool reports_progress) {
  const GraphApi& api = run.api();
  Probe& probe = *run.probe();
  const std::int64_t launches = run.count("replays");
  const std::string& build = run.param("build");  // captures in thread-local mode: 4 threads capture at once
  std::vector<Graph> graphs;
  std::vector<GraphExec> execs;
  try {
    api.use_device(run.device());  // a new thread starts on device 0
    for (std::size_t site : work.sites) {
      graphs.push_back(build_host_chain(run, streams[site].get(), build, site, 1, CaptureMode::thread_local_));
      execs.push_back(api.instantiate(graphs.back().get()));
    }
  } catch (...) {
    work.error = std::current_exception();
  }
  // Start together, even when this thread failed to build (the others wait for it).
  ready.fetch_add(1);
  while (ready.load() < kThreads) std::this_thread::yield();
  if (work.error) return;
  try {
    for (std::int64_t launch = 1; launch <= launches; ++launch) {
      if (reports_progress) run.set_launch(launch, launches);
      for (std::size_t i = 0; i < work.sites.size(); ++i) api.launch(execs[i].get(), streams[work.sites[i]].get());
      for (std::size_t i = 0; i < work.sites.size(); ++i) {
        std::size_t site = work.sites[i];
        api.synchronize(streams[site].get());
        HOSTCB_EXPECT(probe.site_calls(site) == static_cast<std::uint64_t>(launch),
                      str("[count] stream ", site, "'s host function had been called ", probe.site_calls(site),
                          " times after launch ", launch));
      }
    }
  } catch (...) {
    work.error = std::current_exception();
  }
}

void concurrency_body(ScenarioRun& run) {
  const auto stream_count = static_cast<std::size_t>(run.count("streams"));
  std::vector<Stream> streams;
  for (std::size_t i = 0; i < stream_count; ++i) streams.push_back(run.api().make_stream());
  // The layer's captures below are thread-local so that the threads' captures stay out of
  // each other's way: first, that the layer's capture really is (before the probe, so a
  // layer that fails here is not also blamed for the calls it never got to make).
  if (run.param("build") == "capture_by_layer" &&
      !check_layer_capture_lets_others_through(run, streams[0].get(), CaptureMode::thread_local_))
    return;
  Probe& probe = run.make_probe(stream_count, static_cast<std::uint64_t>(run.count("replays")));
  std::vector<ThreadWork> work(kThreads);
  for (std::size_t site = 0; site < stream_count; ++site) work[site % kThreads].sites.push_back(site);

  std::atomic<std::size_t> ready{0};
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kThreads; ++t)
    threads.emplace_back(run_thread, std::ref(run), std::cref(streams), std::ref(work[t]), std::ref(ready), t == 0);
  for (auto& thread : threads) thread.join();
  for (const auto& w : work)
    if (w.error) std::rethrow_exception(w.error);  // a CUDA error in any thread: the scenario's error

  run.set_property("callback_threads_for_independent_streams", std::to_string(probe.distinct_threads()));
  run.set_property("independent_streams_share_one_callback_thread", probe.distinct_threads() == 1 ? "yes" : "no");
}

}  // namespace

Family concurrency_family() {
  Family family;
  family.name = "concurrency";
  family.summary = "16 or 64 streams, each replaying its own graph, launched from 4 host threads at once";
  family.axes = {
      api_axis(),
      forward_axis(),
      build_axis(),
      Axis::count("streams", {16, 64}),
      Axis::count("replays", {1, 2, 5, 50}),
  };
  family.body = concurrency_body;
  family.excluded = [](const Params& p) { return layer_lacks(p); };
  family.control = [](const Params& p) { return oneshot_control(p, p.get_count("replays") >= 2); };
  // A layer whose own captures are all global: four threads capturing at once through it
  // would break each other's captures only when they happen to overlap; the check of the
  // layer's capture mode sees it every time (layer_capture_mode.hpp).
  add_known_bad(family, {frees_capture_at_end(),
                         {"ignores_capture_mode", [](const Params& p) { return p.get("build") == "capture_by_layer"; },
                          caught_by("[capture]")}});
  return family;
}

HOSTCB_FAMILY(concurrency_family);

}  // namespace hostcb::cases
