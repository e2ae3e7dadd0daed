// Checked CUDA runtime calls. A failed check throws CudaError naming the call as written,
// the error name and code, and file:line. The driver API's check (HOSTCB_CU) is in
// driver_api.hpp, beside the entry points that name its errors.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

#include "callback/boundary.hpp"

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

void check_runtime(cudaError_t code, const char* call, SourceLocation where);

// For destructors, which must not throw: reports a failed call to the active scenario.
void check_runtime_nothrow(cudaError_t code, const char* call, SourceLocation where) noexcept;

}  // namespace hostcb

#define HOSTCB_CUDA(call) ::hostcb::check_runtime((call), #call, HOSTCB_HERE)
