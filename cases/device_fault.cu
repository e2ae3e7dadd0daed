// device_fault: a kernel faults (a trap, or a write to an illegal address) with host work
// waiting for it.
//
// Expected (headers, and measured: ../shared/cuda-facts.md), as data below:
//   - the stream reports the fault: 719 launch failure after a trap, 700 illegal address
//     after the bad write;
//   - a host function queued behind the kernel is NOT called, in a graph too;
//   - a stream callback waiting for it IS called, once, with that error status: the
//     status of an earlier failure, which a layer must hand on;
//   - a host function enqueued after the fault is refused with the same (sticky) error.
// `then`, what waits for the kernel (each through the scenario's layer):
//   host_func                        a host function behind it
//   stream_callback                  a stream callback behind it
//   stream_callback_after_host_func  a host function, then a stream callback
//   stream_callback_on_other_stream  a stream callback on a second stream, held shut by a
//                                    kernel until the fault has been seen
//   host_func_in_layer_graph         the kernel and a host function behind it in a graph
//                                    the layer captured itself, launched once
// The kernels wait on flags until everything is queued, so the order never depends on
// timing. The context is broken afterwards: the scenarios of one layer and one fault kind
// share one fault in one fresh worker process (model/shared_fault.hpp).
#include <atomic>
#include <chrono>
#include <memory>

#include "callback/kept.hpp"
#include "cases/cases.hpp"
#include "cases/host_chain.hpp"
#include "cases/layer_rules.hpp"
#include "cuda/kernel_launch.hpp"
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

// What a stream callback waiting for the fault is handed, by where it waits: whether CUDA
// calls it, and whether with the fault's status (else with success). All three measured on
// driver 580.159.04 (called once, with 719 and 700; docs/verification.md): each result's
// `stream_callback_status` property is the status the callback received.
struct CallbackContract {
  const char* then;
  bool called;
  bool gets_fault_status;
};
constexpr CallbackContract kCallbackContracts[] = {
    {"stream_callback", true, true},
    {"stream_callback_after_host_func", true, true},
    {"stream_callback_on_other_stream", true, true},
};

// A release flag's values: 0 wait, kFault fault, kStandDown return without faulting (a
// scenario whose arming failed: nothing may wait for a fault that is not coming).
constexpr int kFault = 1, kStandDown = 2;

__global__ void fault_when_released(const volatile int* release, int kind) {
  while (*release == 0) {
  }
  if (*release == kStandDown) return;
  if (kind == 0) __trap();
  *reinterpret_cast<volatile int*>(static_cast<std::uintptr_t>(0x10)) = 1;  // nothing is mapped there
}

// Holds the second stream shut; gives up after about 20 s (at 2 GHz), so that a context the
// fault broke in some other way than measured cannot leave it spinning.
__global__ void wait_until_released(const volatile int* release) {
  const long long start = clock64();
  while (*release == 0 && clock64() - start < 40'000'000'000LL) {
  }
}

const FaultContract& contract_for(const std::string& fault) {
  for (const auto& c : kContracts)
    if (fault == c.fault) return c;
  throw std::invalid_argument("unknown fault '" + fault + "'");
}

// The stream callback's contract, or nullptr when `then` enqueues none.
const CallbackContract* callback_contract_for(const std::string& then) {
  for (const auto& c : kCallbackContracts)
    if (then == c.then) return &c;
  return nullptr;
}

// The sentinel: a stream callback of hostcb's own, queued behind the layer's.
void mark_called(void*, int, void* flag) { static_cast<std::atomic<bool>*>(flag)->store(true); }

// Launches `kernel` with `args` on `stream`, checking this launch's own return code.
void launch_kernel(const void* kernel, void** args, cudaStream_t stream) {
  HOSTCB_CUDA(cudaLaunchKernel(kernel, dim3(1), dim3(1), args, 0, stream));
}

// One scenario's work around the fault: armed (everything queued, the kernel waiting on
// its flag), struck (the flag set), then checked. Scenarios of one layer and one fault
// kind share the fault (model/shared_fault.hpp): each arms its own kernel on its own
// streams, all of them are released together, and each checks what its layer did.
class ArmedDeviceFault final : public ArmedFault {
 public:
  explicit ArmedDeviceFault(ScenarioRun& run)
      : run_(run),
        api_(run.api()),
        want_(contract_for(run.param("fault"))),
        then_(run.param("then")),
        callback_(callback_contract_for(then_)) {
    Forwarder& layer = run.forward();
    // Site 0 waits for the faulting kernel; site 1 is enqueued after the fault and must be
    // refused, so never called; site 2 is the host function queued before a stream callback.
    probe_ = &run.make_probe(3, 0);
    if (callback_ && callback_->called) probe_->expect_calls(0, 1);
    probe_->expect_callback_status(callback_ && callback_->gets_fault_status ? want_.sync_error : 0);

    flags_ = make_pinned(2 * sizeof(int));  // [0] releases the fault, [1] the other stream
    release_ = static_cast<volatile int*>(flags_.get());
    release_[0] = release_[1] = 0;
    fault_flag_ = release_;
    other_flag_ = release_ + 1;
    kind_ = want_.kind;

    try {
      enqueue(run, layer);
    } catch (...) {
      // Its kernel returns, and nothing waits for a fault. Its streams and flags are left in
      // place, not synchronized and freed: beside other scenarios' kernels, still waiting
      // for a strike that comes only once every scenario has armed, a synchronize could wait
      // for ever. The worker retires after its program in any case.
      release_[0] = kStandDown;
      release_[1] = 1;
      flags_.release();
      stream_.release();
      other_.release();
      throw;
    }
  }

  // The context is dead once the fault has struck: destroying these would only report the
  // same sticky error again, and the process ends after its scenarios.
  ~ArmedDeviceFault() override {
    exec_.release();
    graph_.release();
    other_.release();
    stream_.release();
    flags_.release();
  }

  void strike() override {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    release_[0] = kFault;
    struck_at_ = std::chrono::steady_clock::now();
  }

  void check() override {
    ApiResult sync = api_.try_synchronize(stream_.get());
    HOSTCB_EXPECT(sync.code == want_.sync_error, str("[fault] synchronizing after the fault returned ", sync.name, " (",
                                                     sync.code, "); expected ", api_.error_name(want_.sync_error), " (",
                                                     want_.sync_error, ")"));
    std::atomic_thread_fence(std::memory_order_seq_cst);
    release_[1] = 1;  // the other stream goes on, into a context the fault has broken
    // A stream callback may run after the synchronize returns. Once CUDA has called the
    // sentinel queued behind the layer's, the layer's can no longer come: CUDA calls a
    // stream's callbacks in order, and the layer's calls the probe before it returns. A
    // call the probe cannot place (another userData) has come too. A host function must
    // not run at all, so give a wrong one time to show up: 0.25 s from the fault, which
    // scenarios sharing it wait out once.
    const bool called = callback_ && callback_->called;
    const double since_fault = std::chrono::duration<double>(std::chrono::steady_clock::now() - struck_at_).count();
    if (callback_) {
      // Until the sentinel has run: then the layer's callback has returned, its probe's
      // checks and their failures included (a failure it reported after this scenario was
      // judged would be lost). A layer that calls back from a thread of its own gets a
      // moment more.
      wait_until([&] { return sentinel_->load(); }, 5.0);
      if (called) wait_until([&] { return probe_->total_calls() + probe_->stray_calls() >= 1; }, 0.05);
      run_.set_property("sentinel_before_callback", sentinel_->load() && probe_->total_calls() == 0 ? "yes" : "no");
    } else {
      wait_until([&] { return probe_->total_calls() + probe_->stray_calls() >= 1; }, 0.25 - since_fault);
    }

    ApiResult later = api_.try_launch_host_func(stream_.get(), Probe::host_fn(), probe_->user_data(1));
    HOSTCB_EXPECT(later.code == want_.sync_error,
                  str("[fault] enqueueing a host function after the fault returned ", later.name, " (", later.code,
                      "); expected the sticky ", api_.error_name(want_.sync_error), " (", want_.sync_error, ")"));
    run_.set_property("sync_error", sync.name);
    run_.set_property("enqueue_after_fault", later.name);
  }

 private:
  // The kernel that faults when released, and what waits for it through the layer.
  void enqueue(ScenarioRun& run, Forwarder& layer) {
    void* fault_args[] = {&fault_flag_, &kind_};
    void* wait_args[] = {&other_flag_};
    const void* fault_kernel = reinterpret_cast<const void*>(&fault_when_released);
    stream_ = api_.make_stream();
    run.set_launch(1, 1);
    if (then_ == "host_func_in_layer_graph") {
      graph_ = capture_for_build(run, stream_.get(), parse_build("capture_by_layer"), [&] {
        launch_kernel(fault_kernel, fault_args, stream_.get());
        layer.launch_host_func(api_, stream_.get(), Probe::host_fn(), probe_->user_data(0));
      });
      exec_ = api_.instantiate(graph_.get());
      api_.launch(exec_.get(), stream_.get());
    } else if (then_ == "stream_callback_on_other_stream") {
      launch_kernel(fault_kernel, fault_args, stream_.get());
      other_ = api_.make_stream();
      launch_kernel(reinterpret_cast<const void*>(&wait_until_released), wait_args, other_.get());
      layer.add_stream_callback(api_, other_.get(), Probe::status_fn(), probe_->stream_callback_user_data(0, other_.get()));
      api_.add_stream_callback(other_.get(), &mark_called, sentinel_);
    } else {
      launch_kernel(fault_kernel, fault_args, stream_.get());
      if (then_ == "host_func") layer.launch_host_func(api_, stream_.get(), Probe::host_fn(), probe_->user_data(0));
      if (then_ == "stream_callback_after_host_func")
        layer.launch_host_func(api_, stream_.get(), Probe::host_fn(), probe_->user_data(2));
      if (callback_) {
        layer.add_stream_callback(api_, stream_.get(), Probe::status_fn(),
                                  probe_->stream_callback_user_data(0, stream_.get()));
        api_.add_stream_callback(stream_.get(), &mark_called, sentinel_);
      }
    }
  }

  ScenarioRun& run_;
  const GraphApi& api_;
  const FaultContract& want_;
  const std::string& then_;
  const CallbackContract* callback_;
  Probe* probe_ = nullptr;
  PinnedMemory flags_;
  volatile int* release_ = nullptr;
  const volatile int* fault_flag_ = nullptr;
  const volatile int* other_flag_ = nullptr;
  int kind_ = 0;
  Stream stream_, other_;
  Graph graph_;
  GraphExec exec_;
  std::chrono::steady_clock::time_point struck_at_ = std::chrono::steady_clock::now();
  // CUDA called the stream callback queued behind the layer's. Kept for the process: CUDA
  // may call it after this scenario has gone (when the layer's own callback never returns).
  std::atomic<bool>* sentinel_ = &keep_for_process<std::atomic<bool>>(false);
};

bool has_stream_callback(const Params& p) { return callback_contract_for(p.get("then")) != nullptr; }

// Where a known-bad layer's stream callback is called: there its arguments are checked.
bool stream_callback_called(const Params& p) {
  const CallbackContract* callback = callback_contract_for(p.get("then"));
  return callback && callback->called;
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
      Axis::choice("then", {"host_func", "stream_callback", "stream_callback_after_host_func",
                            "stream_callback_on_other_stream", "host_func_in_layer_graph"}),
  };
  // One fault for every `then` and both APIs of one layer and one fault kind.
  family.shared_fault.arm = [](ScenarioRun& run) { return std::make_unique<ArmedDeviceFault>(run); };
  family.shared_fault.key = [](const Params& p) { return "forward=" + p.get("forward") + "/fault=" + p.get("fault"); };
  family.body = body_alone(family.shared_fault.arm);
  // Through a layer: the stream callback must get the fault's status, not success.
  family.excluded = [](const Params& p) {
    const std::string& then = p.get("then");
    if (then == "host_func_in_layer_graph") return layer_lacks(p, {LayerOp::capture, LayerOp::launch_host_func});
    if (then == "stream_callback_after_host_func")
      return layer_lacks(p, {LayerOp::launch_host_func, LayerOp::add_stream_callback});
    return layer_lacks(p, {has_stream_callback(p) ? LayerOp::add_stream_callback : LayerOp::launch_host_func});
  };
  family.fresh_process = true;
  family.timeout = [](const Params&) { return 30.0; };
  // Stream callbacks handed another stream, a status lost (always success), another userData.
  add_known_bad(family, {
      {"hands_other_stream", stream_callback_called, caught_by("[stream]")},
      {"drops_status",
       [](const Params& p) {
         const CallbackContract* callback = callback_contract_for(p.get("then"));
         return callback && callback->called && callback->gets_fault_status;
       },
       caught_by("[status]")},
      {"hands_other_user_data", stream_callback_called, caught_by("[userdata]")},
  });
  return family;
}

HOSTCB_FAMILY(device_fault_family);

}  // namespace hostcb::cases
