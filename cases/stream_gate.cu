#include "cases/stream_gate.cuh"

#include <atomic>
#include <cstring>

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

__attribute__((noinline)) void scrub_stack() {
  volatile unsigned char stack[64 * 1024];
  for (auto& byte : stack) byte = 0xA5;
}

bool gate_held(const Params& p) { return p.has("gate") && p.get("gate") == "held"; }

}  // namespace hostcb::cases
