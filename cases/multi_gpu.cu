// multi_gpu: a graph made on one device, launched from a thread whose current device is
// another. The stream, graph and exec are created on the next device after the selected
// one; the launches and synchronizations are made with the selected device current. Both
// host functions must be called on every launch, and the thread's current device must not
// move. Needs 2 devices; the replay family covers each device with `--device all`.
#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "model/errors.hpp"
#include "cases/host_chain.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

// Makes `device` current for its lifetime, then restores the one before.
class CurrentDevice {
 public:
  explicit CurrentDevice(int device) {
    HOSTCB_CUDA(cudaGetDevice(&previous_));
    HOSTCB_CUDA(cudaSetDevice(device));
  }
  ~CurrentDevice() { check_runtime_nothrow(cudaSetDevice(previous_), "cudaSetDevice(previous_)", HOSTCB_HERE); }
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;

 private:
  int previous_ = 0;
};

int current_device() {
  int device = -1;
  HOSTCB_CUDA(cudaGetDevice(&device));
  return device;
}

void multi_gpu_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const std::int64_t launches = run.count("replays");
  int count = 0;
  HOSTCB_CUDA(cudaGetDeviceCount(&count));
  const int home = run.device();
  const int other = (home + 1) % count;
  run.set_property("graph_device", std::to_string(other));
  run.set_property("launching_thread_device", std::to_string(home));
  run.make_probe(2, static_cast<std::uint64_t>(launches)).expect_in_order();

  // Declared first, destroyed last: the handles below are destroyed with `other` current.
  CurrentDevice on_other(other);
  Stream stream = api.make_stream();
  Graph graph = build_host_chain(run, stream.get(), run.param("build"), 0, 2);
  GraphExec exec = api.instantiate(graph.get());
  {
    CurrentDevice at_home(home);
    launch_and_check(run, exec.get(), stream.get(), launches, 2);
    HOSTCB_EXPECT(current_device() == home,
                  str("[device] launching on device ", other, " moved the thread's current device to ", current_device()));
  }
}

}  // namespace

Family multi_gpu_family() {
  Family family;
  family.name = "multi_gpu";
  family.summary = "a graph instantiated on another device, launched while the thread's current device is the selected one";
  family.axes = {
      api_axis(),
      forward_axis(),
      build_axis(),
      Axis::count("replays", {1, 2, 5}),
  };
  family.body = multi_gpu_body;
  family.excluded = [](const Params& p) { return layer_lacks(p); };
  family.control = [](const Params& p) { return oneshot_control(p, p.get_count("replays") >= 2); };
  family.requirements = [](const Params&) {
    Requirements needs;
    needs.min_devices = 2;
    return needs;
  };
  add_known_bad(family, {frees_capture_at_end()});
  return family;
}

HOSTCB_FAMILY(multi_gpu_family);

}  // namespace hostcb::cases
