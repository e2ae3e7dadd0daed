// GraphApi through the CUDA driver API, reached through driver_api() (no libcuda link).
#include <stdexcept>

#include "cuda/driver_api.hpp"
#include "cuda/graph_api.hpp"

namespace hostcb {

namespace {

// A call's result with its text and place: what GraphApi's checked forms throw.
#define HOSTCB_TRY_CU(call) result((call), #call, HOSTCB_HERE)

void CUDA_CB driver_stream_callback(CUstream stream, CUresult status, void* record) {
  StatusCall::deliver(record, stream, static_cast<int>(status));
}

class DriverGraphApi final : public GraphApi {
  static CUresult stream_callback(cudaStream_t stream, StatusFn fn, void* user_data) {
    void* record = StatusCall::make(fn, user_data);
    CUresult code = cu().cuStreamAddCallback(stream, driver_stream_callback, record, 0);
    if (code != CUDA_SUCCESS) StatusCall::discard(record);
    return code;
  }

 public:
  const char* name() const override { return "driver"; }

  void begin_capture(cudaStream_t stream, CaptureMode mode) const override {
    HOSTCB_CU(cu().cuStreamBeginCapture(stream, capture_mode(mode)));
  }
  Graph create_graph() const override {
    CUgraph graph = nullptr;
    HOSTCB_CU(cu().cuGraphCreate(&graph, 0));
    return Graph(graph);
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
  void launch(cudaGraphExec_t exec, cudaStream_t stream) const override {
    HOSTCB_CU(cu().cuGraphLaunch(exec, stream));
  }
  ApiResult try_add_stream_callback(cudaStream_t stream, StatusFn fn, void* user_data) const override {
    return result(stream_callback(stream, fn, user_data), "cuStreamAddCallback(stream, driver_stream_callback, record, 0)",
                  HOSTCB_HERE);
  }
  ApiResult try_end_capture(cudaStream_t stream, Graph& graph_out) const override {
    CUgraph graph = nullptr;
    ApiResult ended = HOSTCB_TRY_CU(cu().cuStreamEndCapture(stream, &graph));
    graph_out = Graph(graph);
    return ended;
  }
  int capture_status(cudaStream_t stream) const override {
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    HOSTCB_CU(cu().cuStreamIsCapturing(stream, &status));
    return static_cast<int>(status);
  }
  ApiResult try_synchronize(cudaStream_t stream) const override { return HOSTCB_TRY_CU(cu().cuStreamSynchronize(stream)); }
  ApiResult try_launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const override {
    return HOSTCB_TRY_CU(cu().cuLaunchHostFunc(stream, fn, user_data));
  }
  ApiResult query_stream(cudaStream_t stream) const override { return HOSTCB_TRY_CU(cu().cuStreamQuery(stream)); }
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
  cudaGraphNode_t add_kernel_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, const void* kernel,
                                  void** args) const override {
    cudaFunction_t function = nullptr;  // the same handle as a CUfunction
    HOSTCB_CUDA(cudaGetFuncBySymbol(&function, kernel));
    CUDA_KERNEL_NODE_PARAMS_v1 params{};
    params.func = reinterpret_cast<CUfunction>(function);
    params.gridDimX = params.gridDimY = params.gridDimZ = 1;
    params.blockDimX = params.blockDimY = params.blockDimZ = 1;
    params.kernelParams = args;
    CUgraphNode node = nullptr;
    HOSTCB_CU(cu().cuGraphAddKernelNode(&node, graph, deps.data(), deps.size(), &params));
    return node;
  }
  cudaGraphNode_t add_memcpy_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, void* dst,
                                  const void* src, std::size_t bytes) const override {
    CUDA_MEMCPY3D params{};
    params.srcMemoryType = CU_MEMORYTYPE_UNIFIED;  // unified addressing: pinned or device
    params.srcDevice = reinterpret_cast<CUdeviceptr>(src);
    params.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    params.dstDevice = reinterpret_cast<CUdeviceptr>(dst);
    params.WidthInBytes = bytes;
    params.Height = 1;
    params.Depth = 1;
    CUcontext context = nullptr;
    HOSTCB_CU(cu().cuCtxGetCurrent(&context));
    CUgraphNode node = nullptr;
    HOSTCB_CU(cu().cuGraphAddMemcpyNode(&node, graph, deps.data(), deps.size(), &params, context));
    return node;
  }
  cudaGraphNode_t add_child_graph_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                       cudaGraph_t child) const override {
    CUgraphNode node = nullptr;
    HOSTCB_CU(cu().cuGraphAddChildGraphNode(&node, graph, deps.data(), deps.size(), child));
    return node;
  }
  Graph clone(cudaGraph_t graph) const override {
    CUgraph copy = nullptr;
    HOSTCB_CU(cu().cuGraphClone(&copy, graph));
    return Graph(copy);
  }
  void set_host_node(cudaGraphNode_t node, HostFn fn, void* user_data) const override {
    CUDA_HOST_NODE_PARAMS_v1 params{fn, user_data};
    HOSTCB_CU(cu().cuGraphHostNodeSetParams(node, &params));
  }
  void exec_set_host_node(cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn, void* user_data) const override {
    CUDA_HOST_NODE_PARAMS_v1 params{fn, user_data};
    HOSTCB_CU(cu().cuGraphExecHostNodeSetParams(exec, node, &params));
  }
  ApiResult try_exec_update(cudaGraphExec_t exec, cudaGraph_t graph) const override {
#if CUDA_VERSION >= 12000
    CUgraphExecUpdateResultInfo info{};
    return HOSTCB_TRY_CU(require_entry(cu().cuGraphExecUpdate, "cuGraphExecUpdate")(exec, graph, &info));
#else
    (void)exec, (void)graph;
    throw std::logic_error("cuGraphExecUpdate's 12.0 form needs CUDA 12.0");
#endif
  }
  void upload(cudaGraphExec_t exec, cudaStream_t stream) const override { HOSTCB_CU(cu().cuGraphUpload(exec, stream)); }
  void record_event(cudaEvent_t event, cudaStream_t stream) const override {
    HOSTCB_CU(cu().cuEventRecord(event, stream));
  }
  void wait_event(cudaStream_t stream, cudaEvent_t event) const override {
    HOSTCB_CU(cu().cuStreamWaitEvent(stream, event, 0));
  }
  void begin_capture_to_graph(cudaStream_t stream, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                              CaptureMode mode) const override {
#if CUDA_VERSION >= 12030
    auto begin = require_entry(cu().cuStreamBeginCaptureToGraph, "cuStreamBeginCaptureToGraph");
    HOSTCB_CU(begin(stream, graph, deps.data(), nullptr, deps.size(), capture_mode(mode)));
#else
    (void)stream, (void)graph, (void)deps, (void)mode;
    throw std::logic_error("cuStreamBeginCaptureToGraph needs CUDA 12.3; the scenario should have been skipped");
#endif
  }
  ApiResult try_instantiate_for_device_launch(cudaGraph_t graph, GraphExec& exec_out, int& result_info) const override {
#if CUDA_VERSION >= 12000
    CUDA_GRAPH_INSTANTIATE_PARAMS params{};
    params.flags = CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH;
    CUgraphExec exec = nullptr;
    auto instantiate_with_params = require_entry(cu().cuGraphInstantiateWithParams, "cuGraphInstantiateWithParams");
    ApiResult made = HOSTCB_TRY_CU(instantiate_with_params(&exec, graph, &params));
    exec_out = GraphExec(exec);
    result_info = static_cast<int>(params.result_out);
    return made;
#else
    (void)graph, (void)exec_out, (void)result_info;
    throw std::logic_error("cuGraphInstantiateWithParams needs CUDA 12.0");
#endif
  }
  cudaGraph_t add_conditional_node(cudaGraph_t graph, ConditionalKind kind, unsigned default_value) const override {
#if CUDA_VERSION >= 12040
    CUcontext context = nullptr;
    HOSTCB_CU(cu().cuCtxGetCurrent(&context));
    CUgraphConditionalHandle handle{};
    auto create = require_entry(cu().cuGraphConditionalHandleCreate, "cuGraphConditionalHandleCreate");
    HOSTCB_CU(create(&handle, graph, context, default_value, CU_GRAPH_COND_ASSIGN_DEFAULT));
    CUgraphNodeParams params{};
    params.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    params.conditional.handle = handle;
    params.conditional.type = kind == ConditionalKind::if_ ? CU_GRAPH_COND_TYPE_IF : CU_GRAPH_COND_TYPE_WHILE;
    params.conditional.size = 1;
    params.conditional.ctx = context;
    CUgraphNode node = nullptr;
    HOSTCB_CU(require_entry(cu().cuGraphAddNode, "cuGraphAddNode")(&node, graph, nullptr, 0, &params));
    return params.conditional.phGraph_out[0];
#else
    (void)graph, (void)kind, (void)default_value;
    throw std::logic_error("conditional nodes need CUDA 12.4; the scenario should have been skipped");
#endif
  }
  ApiResult try_instantiate(cudaGraph_t graph, GraphExec& exec_out) const override {
    CUgraphExec exec = nullptr;
    ApiResult made = HOSTCB_TRY_CU(cu().cuGraphInstantiateWithFlags(&exec, graph, 0));
    exec_out = GraphExec(exec);
    return made;
  }

 private:
  static CUstreamCaptureMode capture_mode(CaptureMode mode) {
    return mode == CaptureMode::global         ? CU_STREAM_CAPTURE_MODE_GLOBAL
           : mode == CaptureMode::thread_local_ ? CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
                                                : CU_STREAM_CAPTURE_MODE_RELAXED;
  }
  static ApiResult result(CUresult code, const char* call, SourceLocation where) {
    return {static_cast<int>(code), driver_error_name(code), call, where};
  }
  static const DriverApi& cu() { return driver_api(); }
};

}  // namespace

const GraphApi& driver_graph_api() {
  static const DriverGraphApi api;
  return api;
}

}  // namespace hostcb
