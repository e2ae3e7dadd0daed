// GraphApi through the CUDA runtime API (cuda_runtime_api.h).
#include <stdexcept>

#include "cuda/graph_api.hpp"

namespace hostcb {

namespace {

// A call's result with its text and place: what GraphApi's checked forms throw.
#define HOSTCB_TRY_CUDA(call) result((call), #call, HOSTCB_HERE)

void CUDART_CB runtime_stream_callback(cudaStream_t stream, cudaError_t status, void* record) {
  StatusCall::deliver(record, stream, static_cast<int>(status));
}

class RuntimeApi final : public GraphApi {
  static cudaError_t stream_callback(cudaStream_t stream, StatusFn fn, void* user_data) {
    void* record = StatusCall::make(fn, user_data);
    cudaError_t code = cudaStreamAddCallback(stream, runtime_stream_callback, record, 0);
    if (code != cudaSuccess) StatusCall::discard(record);
    return code;
  }

 public:
  const char* name() const override { return "runtime"; }

  void begin_capture(cudaStream_t stream, CaptureMode mode) const override {
    HOSTCB_CUDA(cudaStreamBeginCapture(stream, capture_mode(mode)));
  }
  Graph create_graph() const override {
    cudaGraph_t graph = nullptr;
    HOSTCB_CUDA(cudaGraphCreate(&graph, 0));
    return Graph(graph);
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
  void launch(cudaGraphExec_t exec, cudaStream_t stream) const override { HOSTCB_CUDA(cudaGraphLaunch(exec, stream)); }
  ApiResult try_add_stream_callback(cudaStream_t stream, StatusFn fn, void* user_data) const override {
    return result(stream_callback(stream, fn, user_data), "cudaStreamAddCallback(stream, runtime_stream_callback, record, 0)",
                  HOSTCB_HERE);
  }
  ApiResult try_end_capture(cudaStream_t stream, Graph& graph_out) const override {
    cudaGraph_t graph = nullptr;
    ApiResult ended = HOSTCB_TRY_CUDA(cudaStreamEndCapture(stream, &graph));
    graph_out = Graph(graph);
    return ended;
  }
  int capture_status(cudaStream_t stream) const override {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    HOSTCB_CUDA(cudaStreamIsCapturing(stream, &status));
    return static_cast<int>(status);
  }
  ApiResult try_synchronize(cudaStream_t stream) const override { return HOSTCB_TRY_CUDA(cudaStreamSynchronize(stream)); }
  ApiResult try_launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const override {
    return HOSTCB_TRY_CUDA(cudaLaunchHostFunc(stream, fn, user_data));
  }
  ApiResult query_stream(cudaStream_t stream) const override { return HOSTCB_TRY_CUDA(cudaStreamQuery(stream)); }
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
  cudaGraphNode_t add_kernel_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, const void* kernel,
                                  void** args) const override {
    cudaKernelNodeParams params{};
    params.func = const_cast<void*>(kernel);
    params.gridDim = dim3(1);
    params.blockDim = dim3(1);
    params.kernelParams = args;
    cudaGraphNode_t node = nullptr;
    HOSTCB_CUDA(cudaGraphAddKernelNode(&node, graph, deps.data(), deps.size(), &params));
    return node;
  }
  cudaGraphNode_t add_memcpy_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, void* dst,
                                  const void* src, std::size_t bytes) const override {
    cudaGraphNode_t node = nullptr;
    HOSTCB_CUDA(cudaGraphAddMemcpyNode1D(&node, graph, deps.data(), deps.size(), dst, src, bytes, cudaMemcpyDefault));
    return node;
  }
  cudaGraphNode_t add_child_graph_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                       cudaGraph_t child) const override {
    cudaGraphNode_t node = nullptr;
    HOSTCB_CUDA(cudaGraphAddChildGraphNode(&node, graph, deps.data(), deps.size(), child));
    return node;
  }
  Graph clone(cudaGraph_t graph) const override {
    cudaGraph_t copy = nullptr;
    HOSTCB_CUDA(cudaGraphClone(&copy, graph));
    return Graph(copy);
  }
  void set_host_node(cudaGraphNode_t node, HostFn fn, void* user_data) const override {
    cudaHostNodeParams params{fn, user_data};
    HOSTCB_CUDA(cudaGraphHostNodeSetParams(node, &params));
  }
  void exec_set_host_node(cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn, void* user_data) const override {
    cudaHostNodeParams params{fn, user_data};
    HOSTCB_CUDA(cudaGraphExecHostNodeSetParams(exec, node, &params));
  }
  ApiResult try_exec_update(cudaGraphExec_t exec, cudaGraph_t graph) const override {
    cudaGraphExecUpdateResultInfo info{};
    return HOSTCB_TRY_CUDA(cudaGraphExecUpdate(exec, graph, &info));
  }
  void upload(cudaGraphExec_t exec, cudaStream_t stream) const override { HOSTCB_CUDA(cudaGraphUpload(exec, stream)); }
  void record_event(cudaEvent_t event, cudaStream_t stream) const override {
    HOSTCB_CUDA(cudaEventRecord(event, stream));
  }
  void wait_event(cudaStream_t stream, cudaEvent_t event) const override {
    HOSTCB_CUDA(cudaStreamWaitEvent(stream, event, 0));
  }
  void begin_capture_to_graph(cudaStream_t stream, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                              CaptureMode mode) const override {
#if CUDART_VERSION >= 12030
    HOSTCB_CUDA(cudaStreamBeginCaptureToGraph(stream, graph, deps.data(), nullptr, deps.size(), capture_mode(mode)));
#else
    (void)stream, (void)graph, (void)deps, (void)mode;
    throw std::logic_error("cudaStreamBeginCaptureToGraph needs CUDA 12.3; the scenario should have been skipped");
#endif
  }
  ApiResult try_instantiate_for_device_launch(cudaGraph_t graph, GraphExec& exec_out, int& result_info) const override {
    cudaGraphInstantiateParams params{};
    params.flags = cudaGraphInstantiateFlagDeviceLaunch;
    cudaGraphExec_t exec = nullptr;
    ApiResult made = HOSTCB_TRY_CUDA(cudaGraphInstantiateWithParams(&exec, graph, &params));
    exec_out = GraphExec(exec);
    result_info = static_cast<int>(params.result_out);
    return made;
  }
  cudaGraph_t add_conditional_node(cudaGraph_t graph, ConditionalKind kind, unsigned default_value) const override {
#if CUDART_VERSION >= 12040
    cudaGraphConditionalHandle handle{};
    HOSTCB_CUDA(cudaGraphConditionalHandleCreate(&handle, graph, default_value, cudaGraphCondAssignDefault));
    cudaGraphNodeParams params{};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = handle;
    params.conditional.type = kind == ConditionalKind::if_ ? cudaGraphCondTypeIf : cudaGraphCondTypeWhile;
    params.conditional.size = 1;
    cudaGraphNode_t node = nullptr;
#if CUDART_VERSION >= 13000
    HOSTCB_CUDA(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params));
#else
    HOSTCB_CUDA(cudaGraphAddNode(&node, graph, nullptr, 0, &params));
#endif
    return params.conditional.phGraph_out[0];
#else
    (void)graph, (void)kind, (void)default_value;
    throw std::logic_error("conditional nodes need CUDA 12.4; the scenario should have been skipped");
#endif
  }
  ApiResult try_instantiate(cudaGraph_t graph, GraphExec& exec_out) const override {
    cudaGraphExec_t exec = nullptr;
    ApiResult made = HOSTCB_TRY_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    exec_out = GraphExec(exec);
    return made;
  }

 private:
  static cudaStreamCaptureMode capture_mode(CaptureMode mode) {
    return mode == CaptureMode::global         ? cudaStreamCaptureModeGlobal
           : mode == CaptureMode::thread_local_ ? cudaStreamCaptureModeThreadLocal
                                                : cudaStreamCaptureModeRelaxed;
  }
  static ApiResult result(cudaError_t code, const char* call, SourceLocation where) {
    return {static_cast<int>(code), runtime_error_name(code), call, where};
  }
};

}  // namespace

const GraphApi& runtime_graph_api() {
  static const RuntimeApi api;
  return api;
}

}  // namespace hostcb
