#include "cuda/cuda_check.hpp"

#include "model/errors.hpp"

namespace hostcb {

CudaError::CudaError(std::string call, int code, std::string error_name, SourceLocation where)
    : LocatedError(str(call, " failed: ", error_name, " (", code, ") at ", project_relative(where.file), ":",
                       where.line),
                   where),
      call_(std::move(call)),
      code_(code),
      error_name_(std::move(error_name)) {}

std::string runtime_error_name(cudaError_t code) {
  const char* name = cudaGetErrorName(code);
  return name ? name : str("cudaError ", static_cast<int>(code));
}

void check_runtime(cudaError_t code, const char* call, SourceLocation where) {
  if (code != cudaSuccess) throw CudaError(call, code, runtime_error_name(code), where);
}

void check_runtime_nothrow(cudaError_t code, const char* call, SourceLocation where) noexcept {
  if (code == cudaSuccess) return;
  report_failure(where.file, where.line,
                 str(call, " failed: ", runtime_error_name(code), " (", static_cast<int>(code), ")"));
}

}  // namespace hostcb
