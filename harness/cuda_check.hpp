// Checked CUDA calls. A failed check throws CudaError naming the call as written, the
// error name and code, and file:line, for the runtime and the driver API alike.
#pragma once
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <string>

#include "boundary.hpp"

namespace hostcb {

class CudaError : public LocatedError {
 public:
  CudaError(std::string call, int code, std::string error_name, SourceLocation where);
  const std::string& call() const { return call_; }
  int code() const { return code_; }
  const std::string& error_name() const { return error_name_; }

 private:
  std::string call_;
  int code_;
  std::string error_name_;
};

std::string runtime_error_name(cudaError_t code);
std::string driver_error_name(CUresult code);  // through the driver's cuGetErrorName when loaded

void check_runtime(cudaError_t code, const char* call, SourceLocation where);
void check_driver(CUresult code, const char* call, SourceLocation where);

// For destructors, which must not throw: reports a failed call to the active scenario.
void check_runtime_nothrow(cudaError_t code, const char* call, SourceLocation where) noexcept;

}  // namespace hostcb

#define HOSTCB_CUDA(call) ::hostcb::check_runtime((call), #call, HOSTCB_HERE)
#define HOSTCB_CU(call) ::hostcb::check_driver((call), #call, HOSTCB_HERE)
