#include "cuda/cuda_handles.hpp"

namespace hostcb {

Stream make_stream() {
  cudaStream_t stream = nullptr;
  HOSTCB_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return Stream(stream);
}

Event make_event(unsigned flags) {
  cudaEvent_t event = nullptr;
  HOSTCB_CUDA(cudaEventCreateWithFlags(&event, flags));
  return Event(event);
}

PinnedMemory make_pinned(std::size_t bytes) {
  void* pointer = nullptr;
  HOSTCB_CUDA(cudaHostAlloc(&pointer, bytes, cudaHostAllocMapped));
  return PinnedMemory(pointer);
}

}  // namespace hostcb
