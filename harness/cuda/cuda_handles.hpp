// RAII owners for CUDA handles: a scenario that fails or throws leaves no stream, graph,
// exec or event behind. Destruction failures are reported to the active scenario. A
// handle CUDA did not make (a CPU stand-in's, tests/sim_cuda.hpp) carries the function
// that destroys it instead.
#pragma once
#include <cuda_runtime_api.h>

#include <utility>

#include "cuda/cuda_check.hpp"

namespace hostcb {

// `DestroyCall` is the call's text, for the report when destruction fails.
template <class T, cudaError_t (*Destroy)(T), const char* DestroyCall>
class CudaHandle {
 public:
  using OwnDestroy = void (*)(T) noexcept;  // for a handle CUDA did not make

  CudaHandle() = default;
  explicit CudaHandle(T handle, OwnDestroy own_destroy = nullptr) : handle_(handle), own_destroy_(own_destroy) {}
  ~CudaHandle() { reset(); }
  CudaHandle(CudaHandle&& other) noexcept
      : handle_(std::exchange(other.handle_, nullptr)), own_destroy_(std::exchange(other.own_destroy_, nullptr)) {}
  CudaHandle& operator=(CudaHandle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
      own_destroy_ = std::exchange(other.own_destroy_, nullptr);
    }
    return *this;
  }
  CudaHandle(const CudaHandle&) = delete;
  CudaHandle& operator=(const CudaHandle&) = delete;

  T get() const { return handle_; }
  // Gives the handle up without destroying it (a context broken on purpose cannot).
  T release() noexcept { return std::exchange(handle_, nullptr); }
  explicit operator bool() const { return handle_ != nullptr; }
  void reset() noexcept {
    if (!handle_) return;
    T handle = std::exchange(handle_, nullptr);
    if (own_destroy_) own_destroy_(handle);
    else check_runtime_nothrow(Destroy(handle), DestroyCall, HOSTCB_HERE);
  }

 private:
  T handle_ = nullptr;
  OwnDestroy own_destroy_ = nullptr;
};

inline constexpr char kStreamDestroy[] = "cudaStreamDestroy(stream)";
inline constexpr char kGraphDestroy[] = "cudaGraphDestroy(graph)";
inline constexpr char kGraphExecDestroy[] = "cudaGraphExecDestroy(exec)";
inline constexpr char kEventDestroy[] = "cudaEventDestroy(event)";
inline constexpr char kFreeHost[] = "cudaFreeHost(pointer)";
using Stream = CudaHandle<cudaStream_t, cudaStreamDestroy, kStreamDestroy>;
using Graph = CudaHandle<cudaGraph_t, cudaGraphDestroy, kGraphDestroy>;
using GraphExec = CudaHandle<cudaGraphExec_t, cudaGraphExecDestroy, kGraphExecDestroy>;
using Event = CudaHandle<cudaEvent_t, cudaEventDestroy, kEventDestroy>;
using PinnedMemory = CudaHandle<void*, cudaFreeHost, kFreeHost>;

// A non-blocking stream (capture is illegal on the legacy default stream).
Stream make_stream();
Event make_event(unsigned flags = cudaEventDisableTiming);
// Page-locked host memory the device can read and write (mapped).
PinnedMemory make_pinned(std::size_t bytes);

}  // namespace hostcb
