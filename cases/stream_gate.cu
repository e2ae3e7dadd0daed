#include "cases/stream_gate.cuh"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "callback/active_scenario.hpp"
#include "model/errors.hpp"

#include "cuda/cuda_check.hpp"
#include "cuda/kernel_launch.hpp"
#include "model/axes.hpp"

namespace hostcb::cases {

namespace {

constexpr long long kBackstopCycles = 40'000'000'000LL;  // about 20 s at 2 GHz

__global__ void spin_until_open(const volatile int* open) {
  const long long start = clock64();
  while (*open == 0 && clock64() - start < kBackstopCycles) {
  }
}

}  // namespace

StreamGate::~StreamGate() { open(); }

void StreamGate::hold(cudaStream_t stream) {
  if (!flag_) {
    flag_ = make_pinned(sizeof(int));
    *static_cast<volatile int*>(flag_.get()) = 0;
  }
  HOSTCB_CUDA(launch_kernel(spin_until_open, 1, 1, stream, static_cast<const volatile int*>(flag_.get())));
}

void StreamGate::open() {
  if (!flag_) return;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *static_cast<volatile int*>(flag_.get()) = 1;
}

struct EnqueuesReturn::Watch {
  std::mutex mutex;
  std::condition_variable returned_cv;
  bool returned = false;
  std::thread watcher;
};

EnqueuesReturn::EnqueuesReturn(StreamGate& gate, const char* what) {
  if (!gate.held()) return;
  watch_ = std::make_unique<Watch>();
  Watch* watch = watch_.get();
  watch->watcher = std::thread([watch, &gate, what] {
    std::unique_lock<std::mutex> lock(watch->mutex);
    const bool in_time = watch->returned_cv.wait_for(lock, std::chrono::duration<double>(kEnqueueSeconds),
                                                     [watch] { return watch->returned; });
    if (in_time) return;
    HOSTCB_EXPECT(in_time, str("[async] ", what, " had not returned ", kEnqueueSeconds,
                               " s after it began, while the stream was held shut: it waits for earlier work on the "
                               "stream, and an enqueue must not"));
    gate.open();  // so that it returns, and the scenario ends by this failure, not by its timeout
  });
}

EnqueuesReturn::~EnqueuesReturn() {
  if (!watch_) return;
  {
    std::lock_guard<std::mutex> lock(watch_->mutex);
    watch_->returned = true;
  }
  watch_->returned_cv.notify_all();
  watch_->watcher.join();
}

__attribute__((noinline)) void scrub_stack() {
  volatile unsigned char stack[64 * 1024];
  for (auto& byte : stack) byte = 0xA5;
}

bool gate_held(const Params& p) { return p.has("gate") && p.get("gate") == "held"; }

}  // namespace hostcb::cases
