// A kernel launch with its own return code. `kernel<<<...>>>()` returns nothing: its error
// is read with cudaGetLastError(), which also returns (and clears) an error some earlier
// call left on this host thread, a contract scenario's 901 made on purpose included, and
// reports it as this launch's. cudaLaunchKernel returns this launch's error and nothing
// else. Scenarios launch kernels only through this: HOSTCB_CUDA(launch_kernel(...)), or
// launch_kernel(api, ...) below where a CPU stand-in of CUDA must answer the launch.
#pragma once
#include <cuda_runtime_api.h>

#include "cuda/graph_api.hpp"

namespace hostcb {

template <class T>
struct exactly {  // keeps the arguments from deducing the kernel's parameter types
  using type = T;
};

template <class... Params>
cudaError_t launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream,
                          typename exactly<Params>::type... args) {
  void* arguments[sizeof...(Params) + 1] = {static_cast<void*>(&args)..., nullptr};
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, arguments, 0, stream);
}

// One thread in one block, through `api` (GraphApi::launch_kernel), checked.
template <class... Params>
void launch_kernel(const GraphApi& api, cudaStream_t stream, void (*kernel)(Params...),
                   typename exactly<Params>::type... args) {
  void* arguments[sizeof...(Params) + 1] = {static_cast<void*>(&args)..., nullptr};
  api.launch_kernel(stream, reinterpret_cast<const void*>(kernel), arguments);
}

}  // namespace hostcb
