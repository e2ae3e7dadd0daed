// What both GraphApi implementations share, and picking one by name.
#include "cuda/graph_api.hpp"

#include <stdexcept>

#include "callback/active_scenario.hpp"
#include "cuda/cuda_check.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {
void check(const ApiResult& result) {
  if (result.code != 0) throw CudaError(result.call, result.code, result.name, result.where);
}
}  // namespace

Graph GraphApi::end_capture(cudaStream_t stream) const {
  Graph graph;
  check(try_end_capture(stream, graph));
  return graph;
}

void GraphApi::launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const {
  check(try_launch_host_func(stream, fn, user_data));
}

GraphExec GraphApi::instantiate(cudaGraph_t graph) const {
  GraphExec exec;
  check(try_instantiate(graph, exec));
  return exec;
}

void GraphApi::synchronize(cudaStream_t stream) const { check(try_synchronize(stream)); }

void GraphApi::synchronize_nothrow(cudaStream_t stream) const noexcept {
  try {
    const ApiResult done = try_synchronize(stream);
    if (done.code != 0)
      report_failure(done.where.file, done.where.line, str(done.call, " failed: ", done.name, " (", done.code, ")"));
  } catch (const std::exception& e) {
    report_failure(__FILE__, __LINE__, e.what());
  }
}

void GraphApi::add_stream_callback(cudaStream_t stream, StatusFn fn, void* user_data) const {
  check(try_add_stream_callback(stream, fn, user_data));
}

std::string GraphApi::context_problem() const {
  // The wait: every callback a scenario enqueued has run, and an asynchronous error is here.
  const cudaError_t idle = cudaDeviceSynchronize();
  (void)cudaGetLastError();  // a non-sticky error belongs to the call that made it: cleared
  if (idle != cudaSuccess) {
    // A sticky error answers every call the same way, however often it is asked.
    const cudaError_t again = cudaDeviceSynchronize();
    (void)cudaGetLastError();
    if (again != cudaSuccess)
      return str("the context holds ", runtime_error_name(again), " (", static_cast<int>(again),
                 "): cudaDeviceSynchronize() fails");
    return str("cudaDeviceSynchronize() returned ", runtime_error_name(idle), " (", static_cast<int>(idle), ")");
  }
  // An allocation is what a capture left open in global mode (any thread's) forbids, and
  // what a context that can do no more work cannot do.
  void* probe = nullptr;
  const cudaError_t made = cudaMalloc(&probe, 1);
  (void)cudaGetLastError();
  if (made != cudaSuccess)
    return str("cudaMalloc(&probe, 1) returned ", runtime_error_name(made), " (", static_cast<int>(made),
               "): a capture left open, or a context that can do no more work");
  const cudaError_t freed = cudaFree(probe);
  (void)cudaGetLastError();
  if (freed != cudaSuccess)
    return str("cudaFree(probe) returned ", runtime_error_name(freed), " (", static_cast<int>(freed), ")");
  return "";
}

ApiResult GraphApi::try_unsafe_call() const {
  void* memory = nullptr;
  const cudaError_t made = cudaMalloc(&memory, 1);
  if (made != cudaSuccess)
    return {static_cast<int>(made), runtime_error_name(made), "cudaMalloc(&memory, 1)", HOSTCB_HERE};
  const cudaError_t freed = cudaFree(memory);
  return {static_cast<int>(freed), runtime_error_name(freed), "cudaFree(memory)", HOSTCB_HERE};
}

CaptureMode parse_capture_mode(const std::string& name) {
  if (name == "global") return CaptureMode::global;
  if (name == "thread_local") return CaptureMode::thread_local_;
  if (name == "relaxed") return CaptureMode::relaxed;
  throw std::invalid_argument("unknown capture mode '" + name + "'");
}

const GraphApi& graph_api(const std::string& name) {
  if (name == "runtime") return runtime_graph_api();
  if (name == "driver") return driver_graph_api();
  throw std::invalid_argument("unknown CUDA API '" + name + "'");
}

namespace {
std::vector<cudaGraphNode_t> graph_nodes(cudaGraph_t graph) {
  std::size_t count = 0;
  HOSTCB_CUDA(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  if (count) HOSTCB_CUDA(cudaGraphGetNodes(graph, nodes.data(), &count));
  nodes.resize(count);
  return nodes;
}

bool is_host_node(cudaGraphNode_t node) {
  cudaGraphNodeType type{};
  HOSTCB_CUDA(cudaGraphNodeGetType(node, &type));
  return type == cudaGraphNodeTypeHost;
}
}  // namespace

Stream GraphApi::make_stream() const { return hostcb::make_stream(); }

Event GraphApi::make_event() const { return hostcb::make_event(); }

std::vector<cudaGraphNode_t> GraphApi::host_nodes(cudaGraph_t graph) const {
  std::vector<cudaGraphNode_t> found;
  for (auto node : graph_nodes(graph))
    if (is_host_node(node)) found.push_back(node);
  return found;
}

HostNodeParams GraphApi::host_node_params(cudaGraphNode_t node) const {
  cudaHostNodeParams params{};
  HOSTCB_CUDA(cudaGraphHostNodeGetParams(node, &params));
  return {params.fn, params.userData};
}

GraphShape GraphApi::graph_shape(cudaGraph_t graph) const {
  std::vector<cudaGraphNode_t> nodes = graph_nodes(graph);
  GraphShape shape;
  shape.nodes = nodes.size();
  for (auto node : nodes) shape.host_nodes += is_host_node(node);
  return shape;
}

std::vector<cudaGraphNode_t> GraphApi::capture_dependencies(cudaStream_t stream) const {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  const cudaGraphNode_t* deps = nullptr;
  std::size_t count = 0;
#if CUDART_VERSION >= 13000
  HOSTCB_CUDA(cudaStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &deps, nullptr, &count));
#else
  HOSTCB_CUDA(cudaStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &deps, &count));
#endif
  return std::vector<cudaGraphNode_t>(deps, deps + count);
}

cudaGraphNode_t GraphApi::find_in_clone(cudaGraphNode_t node, cudaGraph_t clone) const {
  cudaGraphNode_t found = nullptr;
  HOSTCB_CUDA(cudaGraphNodeFindInClone(&found, node, clone));
  return found;
}

cudaGraphNode_t GraphApi::add_empty_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps) const {
  cudaGraphNode_t node = nullptr;
  HOSTCB_CUDA(cudaGraphAddEmptyNode(&node, graph, deps.data(), deps.size()));
  return node;
}

void GraphApi::launch_kernel(cudaStream_t stream, const void* kernel, void** args) const {
  HOSTCB_CUDA(cudaLaunchKernel(kernel, dim3(1), dim3(1), args, 0, stream));
}

void GraphApi::copy_async(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) const {
  HOSTCB_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
}

void GraphApi::load_kernel(const void* kernel) const {
  cudaFuncAttributes attributes;
  HOSTCB_CUDA(cudaFuncGetAttributes(&attributes, kernel));
}

PinnedMemory GraphApi::make_pinned(std::size_t bytes) const { return hostcb::make_pinned(bytes); }

void GraphApi::use_device(int device) const { HOSTCB_CUDA(cudaSetDevice(device)); }

void StatusCall::deliver(void* record, void* stream, int status) noexcept {
  auto* call = static_cast<StatusCall*>(record);
  call->fn(stream, status, call->user_data);
  delete call;
}

void StatusCall::discard(void* record) noexcept { delete static_cast<StatusCall*>(record); }

}  // namespace hostcb
