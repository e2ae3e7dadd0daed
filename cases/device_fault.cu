// device_fault: a kernel faults (a trap, or a write to an illegal address) with a host
// function or a stream callback queued behind it on the same stream.
//
// Expected (headers, and measured: ../shared/cuda-facts.md), as data below:
//   - the stream reports the fault: 719 launch failure after a trap, 700 illegal address
//     after the bad write;
//   - a host function queued behind the kernel is NOT called;
//   - a stream callback queued behind it IS called, once, with that error status;
//   - a host function enqueued after the fault is refused with the same (sticky) error.
// The kernel waits on a flag until both are queued, so the order never depends on timing.
// The context is broken afterwards: each scenario runs in a fresh worker process.
#include <atomic>

#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "model/errors.hpp"
#include "runner/scenario_run.hpp"
#include "callback/wait.hpp"

namespace hostcb::cases {

namespace {

struct FaultContract {
  const char* fault;
  int kind;        // what the kernel does after release: 0 trap, 1 illegal write
  int sync_error;  // what synchronizing the stream returns, and later enqueues too
};
constexpr FaultContract kContracts[] = {
    {"trap", 0, 719},           // cudaErrorLaunchFailure / CUDA_ERROR_LAUNCH_FAILED
    {"out_of_bounds", 1, 700},  // cudaErrorIllegalAddress / CUDA_ERROR_ILLEGAL_ADDRESS
};

__global__ void fault_when_released(const volatile int* release, int kind) {
  while (*release == 0) {
  }
  if (kind == 0) __trap();
  *reinterpret_cast<volatile int*>(static_cast<std::uintptr_t>(0x10)) = 1;  // nothing is mapped there
}

const FaultContract& contract_for(const std::string& fault) {
  for (const auto& c : kContracts)
    if (fault == c.fault) return c;
  throw std::invalid_argument("unknown fault '" + fault + "'");
}

void device_fault_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const FaultContract& want = contract_for(run.param("fault"));
  const bool stream_callback = run.param("then") == "stream_callback";

  // Site 0 is queued behind the faulting kernel; site 1 is enqueued after the fault and
  // must be refused, so never called.
  Probe& probe = run.make_probe(2, 0);
  if (stream_callback) probe.expect_calls(0, 1);
  probe.expect_callback_status(want.sync_error);

  PinnedMemory release = make_pinned(sizeof(int));
  auto* flag = static_cast<volatile int*>(release.get());
  *flag = 0;
  Stream stream = make_stream();
  fault_when_released<<<1, 1, 0, stream.get()>>>(flag, want.kind);
  HOSTCB_CUDA(cudaGetLastError());
  run.set_launch(1, 1);
  if (stream_callback)
    run.forward().add_stream_callback(api, stream.get(), Probe::status_fn(), probe.user_data(0));
  else
    run.forward().launch_host_func(api, stream.get(), Probe::host_fn(), probe.user_data(0));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *flag = 1;

  ApiResult sync = api.try_synchronize(stream.get());
  HOSTCB_EXPECT(sync.code == want.sync_error, str("synchronizing after the fault returned ", sync.name, " (", sync.code,
                                                  "); expected ", api.error_name(want.sync_error), " (",
                                                  want.sync_error, ")"));
  // A stream callback may run after the synchronize returns; a host function must not run
  // at all, so give a wrong one the same time to show up.
  wait_until([&] { return probe.total_calls() >= (stream_callback ? 1u : 1000u); }, stream_callback ? 5.0 : 0.25);

  ApiResult later = api.try_launch_host_func(stream.get(), Probe::host_fn(), probe.user_data(1));
  HOSTCB_EXPECT(later.code == want.sync_error,
                str("enqueueing a host function after the fault returned ", later.name, " (", later.code,
                    "); expected the sticky ", api.error_name(want.sync_error), " (", want.sync_error, ")"));
  run.set_property("sync_error", sync.name);
  run.set_property("enqueue_after_fault", later.name);
  // The context is dead and the process ends after this scenario: destroying these
  // would only report the same sticky error again.
  stream.release();
  release.release();
}

}  // namespace

Family device_fault_family() {
  Family family;
  family.name = "device_fault";
  family.summary = "a faulting kernel: the host function behind it is not called, a stream callback gets the error";
  family.axes = {
      api_axis(),
      forward_axis(),
      Axis::choice("fault", {"trap", "out_of_bounds"}),
      Axis::choice("then", {"host_func", "stream_callback"}),
  };
  family.body = device_fault_body;
  // Through a layer: the stream callback must get the fault's status, not success.
  family.excluded = [](const Params& p) {
    return layer_lacks(p, {p.get("then") == "stream_callback" ? LayerOp::add_stream_callback : LayerOp::launch_host_func});
  };
  family.fresh_process = true;
  family.timeout = [](const Params&) { return 30.0; };
  return family;
}

HOSTCB_FAMILY(device_fault_family);

}  // namespace hostcb::cases
