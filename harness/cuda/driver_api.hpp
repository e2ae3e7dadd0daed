// The driver API, reached through the runtime's entry-point query instead of linking
// libcuda: the binary then starts on a machine with no driver and reports that as a skip.
#pragma once
#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

#include "cuda/cuda_check.hpp"

namespace hostcb {

struct DriverApi {
  PFN_cuGetErrorName_v6000 cuGetErrorName = nullptr;
  PFN_cuLaunchHostFunc_v10000 cuLaunchHostFunc = nullptr;
  PFN_cuStreamAddCallback_v5000 cuStreamAddCallback = nullptr;
  PFN_cuStreamBeginCapture_v10010 cuStreamBeginCapture = nullptr;
  PFN_cuStreamEndCapture_v10000 cuStreamEndCapture = nullptr;
  PFN_cuStreamIsCapturing_v10000 cuStreamIsCapturing = nullptr;
  PFN_cuStreamSynchronize_v2000 cuStreamSynchronize = nullptr;
  PFN_cuGraphCreate_v10000 cuGraphCreate = nullptr;
  PFN_cuGraphAddHostNode_v10000 cuGraphAddHostNode = nullptr;
  PFN_cuGraphInstantiateWithFlags_v11040 cuGraphInstantiateWithFlags = nullptr;
  PFN_cuGraphLaunch_v10000 cuGraphLaunch = nullptr;
  PFN_cuStreamQuery_v2000 cuStreamQuery = nullptr;
  PFN_cuStreamGetCaptureInfo_v11030 cuStreamGetCaptureInfo = nullptr;
  PFN_cuUserObjectCreate_v11030 cuUserObjectCreate = nullptr;
  PFN_cuGraphRetainUserObject_v11030 cuGraphRetainUserObject = nullptr;
  PFN_cuCtxGetCurrent_v4000 cuCtxGetCurrent = nullptr;
  PFN_cuEventRecord_v2000 cuEventRecord = nullptr;
  PFN_cuStreamWaitEvent_v3020 cuStreamWaitEvent = nullptr;
  PFN_cuGraphAddKernelNode_v10000 cuGraphAddKernelNode = nullptr;
  PFN_cuGraphAddMemcpyNode_v10000 cuGraphAddMemcpyNode = nullptr;
  PFN_cuGraphAddChildGraphNode_v10000 cuGraphAddChildGraphNode = nullptr;
  PFN_cuGraphClone_v10000 cuGraphClone = nullptr;
  PFN_cuGraphHostNodeSetParams_v10000 cuGraphHostNodeSetParams = nullptr;
  PFN_cuGraphExecHostNodeSetParams_v10020 cuGraphExecHostNodeSetParams = nullptr;
  PFN_cuGraphUpload_v11010 cuGraphUpload = nullptr;

  // Newer than the oldest driver hostcb supports: nullptr when this driver lacks them.
  // Scenarios that use them declare the driver version they need (family.hpp), so a
  // missing entry is skipped before it is called.
#if CUDA_VERSION >= 12000
  PFN_cuGraphExecUpdate_v12000 cuGraphExecUpdate = nullptr;
  PFN_cuGraphInstantiateWithParams_v12000 cuGraphInstantiateWithParams = nullptr;
#endif
#if CUDA_VERSION >= 12030
  PFN_cuStreamBeginCaptureToGraph_v12030 cuStreamBeginCaptureToGraph = nullptr;
  PFN_cuGraphConditionalHandleCreate_v12030 cuGraphConditionalHandleCreate = nullptr;
  PFN_cuGraphAddNode_v12020 cuGraphAddNode = nullptr;  // the form without edge data
#endif
};

// Loads every entry on first use (thread-safe). Throws CudaError naming the symbol that
// the driver could not provide.
const DriverApi& driver_api();
[[noreturn]] void throw_missing_entry(const char* symbol);

// Returns an optional entry (one that may be nullptr), or throws CudaError naming it.
template <class Fn>
Fn require_entry(Fn fn, const char* symbol) {
  if (!fn) throw_missing_entry(symbol);
  return fn;
}

// The table if already loaded, else nullptr; never loads (used for error names).
const DriverApi* loaded_driver_api() noexcept;

// "CUDA_ERROR_INVALID_VALUE", through the driver's cuGetErrorName when the table is loaded.
std::string driver_error_name(CUresult code);
// Throws CudaError naming the call, the error and file:line unless `code` is CUDA_SUCCESS.
void check_driver(CUresult code, const char* call, SourceLocation where);

}  // namespace hostcb

#define HOSTCB_CU(call) ::hostcb::check_driver((call), #call, HOSTCB_HERE)
