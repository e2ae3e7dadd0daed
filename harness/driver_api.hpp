// The driver API, reached through the runtime's entry-point query instead of linking
// libcuda: the binary then starts on a machine with no driver and reports that as a skip.
#pragma once
#include <cuda.h>
#include <cudaTypedefs.h>

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
};

// Loads every entry on first use (thread-safe). Throws CudaError naming the symbol that
// the driver could not provide.
const DriverApi& driver_api();
// The table if already loaded, else nullptr; never loads (used for error names).
const DriverApi* loaded_driver_api() noexcept;

}  // namespace hostcb
