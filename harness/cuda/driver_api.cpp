#include "cuda/driver_api.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <mutex>

#include "cuda/cuda_check.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {
std::atomic<const DriverApi*> g_loaded{nullptr};

// `abi_version` selects the ABI the PFN type was written for (its _vNNNNN suffix).
// Loads `symbol` into `out`; with `optional`, a driver without it leaves nullptr.
template <class Fn>
void load(Fn& out, const char* symbol, unsigned abi_version, bool optional = false) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  HOSTCB_CUDA(cudaGetDriverEntryPointByVersion(symbol, &fn, abi_version, cudaEnableDefault, &found));
#else
  // Before 12.5 the runtime's query returns the ABI of its own headers (12.3 changed
  // cuStreamGetCaptureInfo's, 12.0 cuGraphAddKernelNode's), so ask the driver's
  // cuGetProcAddress for the version each PFN type was written for instead.
  static PFN_cuGetProcAddress_v12000 get_proc_address = [] {
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    HOSTCB_CUDA(cudaGetDriverEntryPoint("cuGetProcAddress", &entry, cudaEnableDefault, &status));
    if (status != cudaDriverEntryPointSuccess || !entry) throw_missing_entry("cuGetProcAddress");
    return reinterpret_cast<PFN_cuGetProcAddress_v12000>(entry);
  }();
  CUdriverProcAddressQueryResult symbol_status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  HOSTCB_CU(get_proc_address(symbol, &fn, static_cast<int>(abi_version), CU_GET_PROC_ADDRESS_DEFAULT, &symbol_status));
  found = symbol_status == CU_GET_PROC_ADDRESS_SUCCESS                ? cudaDriverEntryPointSuccess
          : symbol_status == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT ? cudaDriverEntryPointVersionNotSufficent
                                                                      : cudaDriverEntryPointSymbolNotFound;
#endif
  if ((found != cudaDriverEntryPointSuccess || fn == nullptr) && optional) return;
  if (found != cudaDriverEntryPointSuccess || fn == nullptr) {
    const char* why = found == cudaDriverEntryPointVersionNotSufficent ? "cudaDriverEntryPointVersionNotSufficent"
                                                                       : "cudaDriverEntryPointSymbolNotFound";
    throw CudaError(str("driver entry point ", symbol, " (ABI ", abi_version, ")"), static_cast<int>(found), why,
                    HOSTCB_HERE);
  }
  out = reinterpret_cast<Fn>(fn);
}
}  // namespace

void throw_missing_entry(const char* symbol) {
  throw CudaError(str("driver entry point ", symbol), static_cast<int>(cudaDriverEntryPointSymbolNotFound),
                  "not provided by this driver", HOSTCB_HERE);
}

const DriverApi* loaded_driver_api() noexcept { return g_loaded.load(std::memory_order_acquire); }

const DriverApi& driver_api() {
  static std::mutex mutex;
  static DriverApi table;
  if (const DriverApi* ready = loaded_driver_api()) return *ready;
  std::lock_guard<std::mutex> lock(mutex);
  if (const DriverApi* ready = loaded_driver_api()) return *ready;
  load(table.cuGetErrorName, "cuGetErrorName", 6000);
  load(table.cuLaunchHostFunc, "cuLaunchHostFunc", 10000);
  load(table.cuStreamAddCallback, "cuStreamAddCallback", 5000);
  load(table.cuStreamBeginCapture, "cuStreamBeginCapture", 10010);
  load(table.cuStreamEndCapture, "cuStreamEndCapture", 10000);
  load(table.cuStreamIsCapturing, "cuStreamIsCapturing", 10000);
  load(table.cuStreamSynchronize, "cuStreamSynchronize", 2000);
  load(table.cuGraphCreate, "cuGraphCreate", 10000);
  load(table.cuGraphAddHostNode, "cuGraphAddHostNode", 10000);
  load(table.cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", 11040);
  load(table.cuGraphLaunch, "cuGraphLaunch", 10000);
  load(table.cuStreamQuery, "cuStreamQuery", 2000);
  load(table.cuStreamGetCaptureInfo, "cuStreamGetCaptureInfo", 11030);
  load(table.cuUserObjectCreate, "cuUserObjectCreate", 11030);
  load(table.cuGraphRetainUserObject, "cuGraphRetainUserObject", 11030);
  load(table.cuCtxGetCurrent, "cuCtxGetCurrent", 4000);
  load(table.cuEventRecord, "cuEventRecord", 2000);
  load(table.cuStreamWaitEvent, "cuStreamWaitEvent", 3020);
  load(table.cuGraphAddKernelNode, "cuGraphAddKernelNode", 10000);
  load(table.cuGraphAddMemcpyNode, "cuGraphAddMemcpyNode", 10000);
  load(table.cuGraphAddChildGraphNode, "cuGraphAddChildGraphNode", 10000);
  load(table.cuGraphClone, "cuGraphClone", 10000);
  load(table.cuGraphHostNodeSetParams, "cuGraphHostNodeSetParams", 10000);
  load(table.cuGraphExecHostNodeSetParams, "cuGraphExecHostNodeSetParams", 10020);
  load(table.cuGraphUpload, "cuGraphUpload", 11010);
#if CUDA_VERSION >= 12000
  load(table.cuGraphExecUpdate, "cuGraphExecUpdate", 12000, true);
  load(table.cuGraphInstantiateWithParams, "cuGraphInstantiateWithParams", 12000, true);
#endif
#if CUDA_VERSION >= 12030
  load(table.cuStreamBeginCaptureToGraph, "cuStreamBeginCaptureToGraph", 12030, true);
  load(table.cuGraphConditionalHandleCreate, "cuGraphConditionalHandleCreate", 12030, true);
  load(table.cuGraphAddNode, "cuGraphAddNode", 12020, true);
#endif
  g_loaded.store(&table, std::memory_order_release);
  return table;
}

std::string driver_error_name(CUresult code) {
  const char* name = nullptr;
  if (const DriverApi* api = loaded_driver_api())
    if (api->cuGetErrorName && api->cuGetErrorName(code, &name) == CUDA_SUCCESS && name) return name;
  return str("CUresult ", static_cast<int>(code));
}

void check_driver(CUresult code, const char* call, SourceLocation where) {
  if (code != CUDA_SUCCESS) throw CudaError(call, code, driver_error_name(code), where);
}

}  // namespace hostcb
