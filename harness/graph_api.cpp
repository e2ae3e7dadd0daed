#include "graph_api.hpp"

#include <stdexcept>

#include "driver_api.hpp"
#include "probe.hpp"

namespace hostcb {

CaptureMode parse_capture_mode(const std::string& name) {
  if (name == "global") return CaptureMode::global;
  if (name == "thread_local") return CaptureMode::thread_local_;
  if (name == "relaxed") return CaptureMode::relaxed;
  throw std::invalid_argument("unknown capture mode '" + name + "'");
}

namespace {

void CUDART_CB runtime_stream_callback(cudaStream_t, cudaError_t status, void* probe_site) {
  Probe::entry_with_status(probe_site, static_cast<int>(status));
}

void CUDA_CB driver_stream_callback(CUstream, CUresult status, void* probe_site) {
  Probe::entry_with_status(probe_site, static_cast<int>(status));
}

class RuntimeApi final : public GraphApi {
 public:
  const char* name() const override { return "runtime"; }

  void begin_capture(cudaStream_t stream, CaptureMode mode) const override {
    cudaStreamCaptureMode m = mode == CaptureMode::global         ? cudaStreamCaptureModeGlobal
                              : mode == CaptureMode::thread_local_ ? cudaStreamCaptureModeThreadLocal
                                                                   : cudaStreamCaptureModeRelaxed;
    HOSTCB_CUDA(cudaStreamBeginCapture(stream, m));
  }
  Graph end_capture(cudaStream_t stream) const override {
    cudaGraph_t graph = nullptr;
    HOSTCB_CUDA(cudaStreamEndCapture(stream, &graph));
    return Graph(graph);
  }
  Graph create_graph() const override {
    cudaGraph_t graph = nullptr;
    HOSTCB_CUDA(cudaGraphCreate(&graph, 0));
    return Graph(graph);
  }
  void launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const override {
    HOSTCB_CUDA(cudaLaunchHostFunc(stream, fn, user_data));
  }
  cudaGraphNode_t add_host_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, HostFn fn,
                                void* user_data) const override {
    cudaHostNodeParams params{};
    params.fn = fn;
    params.userData = user_data;
    cudaGraphNode_t node = nullptr;
    HOSTCB_CUDA(cudaGraphAddHostNode(&node, graph, deps.data(), deps.size(), &params));
    return node;
  }
  GraphExec instantiate(cudaGraph_t graph) const override {
    cudaGraphExec_t exec = nullptr;
    HOSTCB_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    return GraphExec(exec);
  }
  void launch(cudaGraphExec_t exec, cudaStream_t stream) const override { HOSTCB_CUDA(cudaGraphLaunch(exec, stream)); }
  void synchronize(cudaStream_t stream) const override { HOSTCB_CUDA(cudaStreamSynchronize(stream)); }
  void add_stream_callback(cudaStream_t stream, void* probe_site) const override {
    HOSTCB_CUDA(cudaStreamAddCallback(stream, runtime_stream_callback, probe_site, 0));
  }
  ApiResult try_add_stream_callback(cudaStream_t stream, void* probe_site) const override {
    cudaError_t code = cudaStreamAddCallback(stream, runtime_stream_callback, probe_site, 0);
    return {static_cast<int>(code), runtime_error_name(code)};
  }
  ApiResult try_end_capture(cudaStream_t stream, Graph& graph_out) const override {
    cudaGraph_t graph = nullptr;
    cudaError_t code = cudaStreamEndCapture(stream, &graph);
    graph_out = Graph(graph);
    return {static_cast<int>(code), runtime_error_name(code)};
  }
  int capture_status(cudaStream_t stream) const override {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    HOSTCB_CUDA(cudaStreamIsCapturing(stream, &status));
    return static_cast<int>(status);
  }
  ApiResult try_synchronize(cudaStream_t stream) const override { return result(cudaStreamSynchronize(stream)); }
  ApiResult try_launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const override {
    return result(cudaLaunchHostFunc(stream, fn, user_data));
  }
  ApiResult query_stream(cudaStream_t stream) const override { return result(cudaStreamQuery(stream)); }
  std::string error_name(int code) const override { return runtime_error_name(static_cast<cudaError_t>(code)); }
  cudaGraph_t capturing_graph(cudaStream_t stream) const override {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    cudaGraph_t graph = nullptr;
    HOSTCB_CUDA(cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph));
    return status == cudaStreamCaptureStatusActive ? graph : nullptr;
  }
  void retain_with_graph(cudaGraph_t graph, void* object, HostFn destroy) const override {
    cudaUserObject_t user_object = nullptr;
    cudaError_t created = cudaUserObjectCreate(&user_object, object, destroy, 1, cudaUserObjectNoDestructorSync);
    if (created != cudaSuccess) destroy(object);
    HOSTCB_CUDA(created);
    cudaError_t retained = cudaGraphRetainUserObject(graph, user_object, 1, cudaGraphUserObjectMove);
    if (retained != cudaSuccess) (void)cudaUserObjectRelease(user_object, 1);  // runs destroy(object)
    HOSTCB_CUDA(retained);
  }

 private:
  static ApiResult result(cudaError_t code) { return {static_cast<int>(code), runtime_error_name(code)}; }
};

class DriverGraphApi final : public GraphApi {
 public:
  const char* name() const override { return "driver"; }

  void begin_capture(cudaStream_t stream, CaptureMode mode) const override {
    CUstreamCaptureMode m = mode == CaptureMode::global         ? CU_STREAM_CAPTURE_MODE_GLOBAL
                            : mode == CaptureMode::thread_local_ ? CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
                                                                 : CU_STREAM_CAPTURE_MODE_RELAXED;
    HOSTCB_CU(cu().cuStreamBeginCapture(stream, m));
  }
  Graph end_capture(cudaStream_t stream) const override {
    CUgraph graph = nullptr;
    HOSTCB_CU(cu().cuStreamEndCapture(stream, &graph));
    return Graph(graph);
  }
  Graph create_graph() const override {
    CUgraph graph = nullptr;
    HOSTCB_CU(cu().cuGraphCreate(&graph, 0));
    return Graph(graph);
  }
  void launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const override {
    HOSTCB_CU(cu().cuLaunchHostFunc(stream, fn, user_data));
  }
  cudaGraphNode_t add_host_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, HostFn fn,
                                void* user_data) const override {
    CUDA_HOST_NODE_PARAMS_v1 params{};
    params.fn = fn;
    params.userData = user_data;
    CUgraphNode node = nullptr;
    HOSTCB_CU(cu().cuGraphAddHostNode(&node, graph, deps.data(), deps.size(), &params));
    return node;
  }
  GraphExec instantiate(cudaGraph_t graph) const override {
    CUgraphExec exec = nullptr;
    HOSTCB_CU(cu().cuGraphInstantiateWithFlags(&exec, graph, 0));
    return GraphExec(exec);
  }
  void launch(cudaGraphExec_t exec, cudaStream_t stream) const override {
    HOSTCB_CU(cu().cuGraphLaunch(exec, stream));
  }
  void synchronize(cudaStream_t stream) const override { HOSTCB_CU(cu().cuStreamSynchronize(stream)); }
  void add_stream_callback(cudaStream_t stream, void* probe_site) const override {
    HOSTCB_CU(cu().cuStreamAddCallback(stream, driver_stream_callback, probe_site, 0));
  }
  ApiResult try_add_stream_callback(cudaStream_t stream, void* probe_site) const override {
    CUresult code = cu().cuStreamAddCallback(stream, driver_stream_callback, probe_site, 0);
    return {static_cast<int>(code), driver_error_name(code)};
  }
  ApiResult try_end_capture(cudaStream_t stream, Graph& graph_out) const override {
    CUgraph graph = nullptr;
    CUresult code = cu().cuStreamEndCapture(stream, &graph);
    graph_out = Graph(graph);
    return {static_cast<int>(code), driver_error_name(code)};
  }
  int capture_status(cudaStream_t stream) const override {
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    HOSTCB_CU(cu().cuStreamIsCapturing(stream, &status));
    return static_cast<int>(status);
  }
  ApiResult try_synchronize(cudaStream_t stream) const override { return result(cu().cuStreamSynchronize(stream)); }
  ApiResult try_launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const override {
    return result(cu().cuLaunchHostFunc(stream, fn, user_data));
  }
  ApiResult query_stream(cudaStream_t stream) const override { return result(cu().cuStreamQuery(stream)); }
  std::string error_name(int code) const override { return driver_error_name(static_cast<CUresult>(code)); }
  cudaGraph_t capturing_graph(cudaStream_t stream) const override {
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    CUgraph graph = nullptr;
    HOSTCB_CU(cu().cuStreamGetCaptureInfo(stream, &status, nullptr, &graph, nullptr, nullptr));
    return status == CU_STREAM_CAPTURE_STATUS_ACTIVE ? graph : nullptr;
  }
  void retain_with_graph(cudaGraph_t graph, void* object, HostFn destroy) const override {
    CUuserObject user_object = nullptr;
    CUresult created = cu().cuUserObjectCreate(&user_object, object, destroy, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
    if (created != CUDA_SUCCESS) destroy(object);
    HOSTCB_CU(created);
    CUresult retained = cu().cuGraphRetainUserObject(graph, user_object, 1, CU_GRAPH_USER_OBJECT_MOVE);
    if (retained != CUDA_SUCCESS) (void)cudaUserObjectRelease(user_object, 1);  // runs destroy(object)
    HOSTCB_CU(retained);
  }

 private:
  static ApiResult result(CUresult code) { return {static_cast<int>(code), driver_error_name(code)}; }
  static const DriverApi& cu() { return driver_api(); }
};

}  // namespace

const GraphApi& graph_api(const std::string& name) {
  static const RuntimeApi runtime;
  static const DriverGraphApi driver;
  if (name == "runtime") return runtime;
  if (name == "driver") return driver;
  throw std::invalid_argument("unknown CUDA API '" + name + "'");
}

GraphShape graph_shape(cudaGraph_t graph) {
  std::size_t count = 0;
  HOSTCB_CUDA(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  if (count) HOSTCB_CUDA(cudaGraphGetNodes(graph, nodes.data(), &count));
  GraphShape shape;
  shape.nodes = count;
  for (auto node : nodes) {
    cudaGraphNodeType type{};
    HOSTCB_CUDA(cudaGraphNodeGetType(node, &type));
    if (type == cudaGraphNodeTypeHost) ++shape.host_nodes;
  }
  return shape;
}

}  // namespace hostcb
