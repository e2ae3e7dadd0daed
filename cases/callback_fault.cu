// callback_fault: host functions that misbehave, and wrappers that call them wrongly.
//
// One host function in a captured graph, launched 3 times with a sync after each. Every
// fault except calls_cuda is a known-bad control, with the verdict the harness must reach:
//   throws, fails_expectation   on launch 2: failed, with the message and [launch 2]
//   blocks                      sleeps on launch 2: error "timed out at launch 2 of 3"
//   crashes                     raises SIGSEGV on launch 2: error naming SIGSEGV
//   skips_every_other           a wrapper calling it on odd calls only: failed (2 of 3)
//   runs_twice                  a wrapper calling it twice per launch: failed (6 of 3)
//   wrong_user_data             a wrapper passing another pointer: failed (stray calls)
// calls_cuda is an ordinary contract scenario: a host function queries its own stream.
// The other faults run through the `forward` axis's layer, which must carry each to its
// verdict; the wrapper defects are layers of their own (forward=direct only), and
// through the oneshot layer every fault is a control that must end failed or error.
// What that returns is data below, per API, as measured on driver 580.159.04.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "cases/contract_checks.hpp"
#include "model/errors.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

constexpr std::int64_t kLaunches = 3;
constexpr std::int64_t kFaultyLaunch = 2;
// Host functions must not call CUDA. The runtime enforces it: cudaStreamQuery returns
// cudaErrorNotPermitted (800, as cuda-facts.md records). The driver API does not:
// cuStreamQuery answers CUDA_ERROR_NOT_READY (600), the stream still being busy with the
// host function itself (measured on the H200, driver 580.159.04, 2026-11-30).
int expected_query_result(const std::string& api) { return api == "runtime" ? 800 : 600; }

// A wrapper that forwards to the direct API through a trampoline of its own, which
// `defect` makes call the function wrongly. Records live as long as the layer.
class DefectiveLayer final : public Forwarder {
 public:
  explicit DefectiveLayer(std::string defect) : defect_(std::move(defect)) {}
  const char* name() const override { return "defective"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    api.launch_host_func(stream, &trampoline, make_record(fn, user_data));
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return api.add_host_node(graph, deps, &trampoline, make_record(fn, user_data));
  }
  // The defects live in the host function's call; the scenario needs nothing else.
  bool has(LayerOp op) const override { return op == LayerOp::launch_host_func || op == LayerOp::add_host_node; }
  void add_stream_callback(const GraphApi&, cudaStream_t, StatusFn, void*) override { unused("add_stream_callback"); }
  void begin_capture(const GraphApi&, cudaStream_t, CaptureMode) override { unused("begin_capture"); }
  Graph end_capture(const GraphApi&, cudaStream_t) override { unused("end_capture"); }
  void graph_set_host_node(const GraphApi&, cudaGraph_t, cudaGraphNode_t, HostFn, void*) override {
    unused("graph_set_host_node");
  }
  void exec_set_host_node(const GraphApi&, cudaGraphExec_t, cudaGraphNode_t, HostFn, void*) override {
    unused("exec_set_host_node");
  }

 private:
  struct Record {
    HostFn fn;
    void* user_data;
    DefectiveLayer* layer;
    std::atomic<int> calls{0};
  };
  Record* make_record(HostFn fn, void* user_data) {
    records_.push_back(std::make_unique<Record>());
    Record* r = records_.back().get();
    r->fn = fn;
    r->user_data = user_data;
    r->layer = this;
    return r;
  }
  static void trampoline(void* opaque) {
    auto* r = static_cast<Record*>(opaque);
    int call = r->calls.fetch_add(1);
    const std::string& defect = r->layer->defect_;
    if (defect == "skips_every_other") {
      if (call % 2 == 0) r->fn(r->user_data);
    } else if (defect == "runs_twice") {
      r->fn(r->user_data);
      r->fn(r->user_data);
    } else if (defect == "wrong_user_data") {
      r->fn(static_cast<char*>(r->user_data) + 1);
    } else {
      r->fn(r->user_data);
    }
  }
  [[noreturn]] static void unused(const char* op) { throw std::logic_error(str("the defective layer has no ", op)); }
  std::string defect_;
  std::vector<std::unique_ptr<Record>> records_;
};

bool is_wrapper_defect(const std::string& fault) {
  return fault == "skips_every_other" || fault == "runs_twice" || fault == "wrong_user_data";
}

}  // namespace

void run_callback_fault(ScenarioRun& run, const std::string& fault) {
  const GraphApi& api = run.api();
  Probe& probe = run.make_probe(1, kLaunches);
  Stream stream = api.make_stream();
  cudaStream_t raw_stream = stream.get();
  std::atomic<int> query_result{-1};

  probe.set_action(0, HOSTCB_HERE, [&, fault](std::int64_t launch) {
    if (fault == "calls_cuda" && launch == 1) query_result = api.query_stream(raw_stream).code;
    if (launch != kFaultyLaunch) return;
    if (fault == "throws") throw std::runtime_error(str("injected exception on launch ", launch));
    if (fault == "fails_expectation") HOSTCB_EXPECT(launch != kFaultyLaunch, "injected failed expectation");
    if (fault == "crashes") raise(SIGSEGV);
    if (fault == "blocks") std::this_thread::sleep_for(std::chrono::hours(1));
  });

  DefectiveLayer defective(fault);
  Forwarder& layer = is_wrapper_defect(fault) ? static_cast<Forwarder&>(defective) : run.forward();
  Graph graph = capture_graph(api, raw_stream, CaptureMode::global,
                              [&] { layer.launch_host_func(api, raw_stream, Probe::host_fn(), probe.user_data(0)); });
  GraphExec exec = api.instantiate(graph.get());
  for (std::int64_t launch = 1; launch <= kLaunches; ++launch) {
    run.set_launch(launch, kLaunches);
    api.launch(exec.get(), raw_stream);
    api.synchronize(raw_stream);
  }
  if (fault == "calls_cuda") {
    const int want = expected_query_result(run.param("api"));
    HOSTCB_EXPECT(query_result == want,
                  str("[contract] a stream query inside a host function returned ", api.error_name(query_result), " (",
                      query_result.load(), "); expected ", api.error_name(want), " (", want, ")"));
    run.set_property("query_in_host_function", api.error_name(query_result));
  }
}

namespace {

std::optional<ExpectedVerdict> verdict_for(const Params& p) {
  if (auto control = oneshot_control(p, kLaunches >= 2)) return control;
  const std::string& fault = p.get("fault");
  if (fault == "throws") return ExpectedVerdict{{Status::failed}, "injected exception on launch 2"};
  if (fault == "fails_expectation") return ExpectedVerdict{{Status::failed}, "injected failed expectation"};
  if (fault == "blocks") return ExpectedVerdict{{Status::error}, "timed out at launch 2 of 3"};
  if (fault == "crashes") return ExpectedVerdict{{Status::error}, "SEGV"};  // SIGSEGV, or ASan's "SEGV on"
  if (fault == "skips_every_other") return ExpectedVerdict{{Status::failed}, "called 2 times; expected exactly 3"};
  if (fault == "runs_twice") return ExpectedVerdict{{Status::failed}, "called 6 times; expected exactly 3"};
  if (fault == "wrong_user_data") return ExpectedVerdict{{Status::failed}, "userData that is no host function"};
  return std::nullopt;  // calls_cuda: an ordinary scenario
}

}  // namespace

Family callback_fault_family() {
  Family family;
  family.name = "callback_fault";
  family.summary = "host functions that throw, block, crash, call CUDA, or are called wrongly by their wrapper";
  family.axes = {
      api_axis(),
      forward_axis(),
      Axis::choice("fault", {"throws", "fails_expectation", "calls_cuda", "blocks", "crashes", "skips_every_other",
                             "runs_twice", "wrong_user_data"}),
  };
  family.body = [](ScenarioRun& run) { run_callback_fault(run, run.param("fault")); };
  family.control = verdict_for;
  family.excluded = [](const Params& p) -> std::optional<std::string> {
    if (is_wrapper_defect(p.get("fault")) && p.get("forward") != "direct")
      return p.get("fault") + " is a wrapper of its own over CUDA: it runs with forward=direct only";
    return layer_lacks(p, {LayerOp::launch_host_func});
  };
  // `blocks` must time out quickly; the others keep the run's limit (a loaded machine can
  // take seconds to start CUDA: 8.8 s was seen under ctest -j32 on the H200 pair).
  family.timeout = [](const Params& p) { return p.get("fault") == "blocks" ? 5.0 : 0.0; };
  return family;
}

HOSTCB_FAMILY(callback_fault_family);

}  // namespace hostcb::cases
