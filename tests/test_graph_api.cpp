// GraphApi's checked calls are written once, over each API's try_ form: a failed call throws
// the CudaError its try_ form describes, naming the call as written and where it is. A null
// host function is refused by CUDA whether or not a driver is there (without one, every
// call fails), so this runs on any machine.
#include "catch_compat.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/graph_api.hpp"

using namespace hostcb;

TEST_CASE("a checked GraphApi call throws what its try_ form returned, naming the call", "[graph_api]") {
  const GraphApi& api = runtime_graph_api();
  const ApiResult tried = api.try_launch_host_func(nullptr, nullptr, nullptr);
  REQUIRE(tried.code != 0);
  CHECK(std::string(tried.call) == "cudaLaunchHostFunc(stream, fn, user_data)");
  CHECK(contains(tried.where.file, "graph_api_runtime.cpp"));
  try {
    api.launch_host_func(nullptr, nullptr, nullptr);
    FAIL("a refused call did not throw");
  } catch (const CudaError& e) {
    CHECK(e.code() == tried.code);
    CHECK(e.error_name() == tried.name);
    CHECK(e.call() == "cudaLaunchHostFunc(stream, fn, user_data)");
    CHECK(contains(e.what(), "cudaLaunchHostFunc(stream, fn, user_data) failed: " + tried.name));
    CHECK(contains(e.what(), "harness/cuda/graph_api_runtime.cpp:"));
  }
}
