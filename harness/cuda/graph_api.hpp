// The CUDA calls a host-callback scenario makes, behind one interface with two
// implementations: the runtime API and the driver API. A scenario body is written once
// and runs through either (the `api` axis). Handles are shared: a cudaStream_t is a
// CUstream, a cudaGraph_t a CUgraph.
#pragma once
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "callback/boundary.hpp"
#include "cuda/cuda_handles.hpp"

namespace hostcb {

enum class CaptureMode { global, thread_local_, relaxed };
CaptureMode parse_capture_mode(const std::string& name);  // "global", "thread_local", "relaxed"

enum class ConditionalKind { if_, while_ };

// A CUDA result kept as data: for scenarios that expect a specific error, and for the
// checked calls, which throw it as a CudaError (the call as written, its error, file:line).
struct ApiResult {
  int code = 0;
  std::string name;
  const char* call = "";
  SourceLocation where{"", 0};
};

// Node count of a graph, and how many of them are host nodes.
struct GraphShape {
  std::size_t nodes = 0;
  std::size_t host_nodes = 0;
};

// What a host node calls, as its graph holds it.
struct HostNodeParams {
  HostFn fn = nullptr;
  void* user_data = nullptr;
};

// A stream callback has one userData for both the function to call and its own userData:
// a record made at enqueue, freed after its one call. Stream callbacks cannot be captured,
// so each is called exactly once; an enqueue that fails frees the record at once.
struct StatusCall {
  StatusFn fn;
  void* user_data;
  static void* make(StatusFn fn, void* user_data) { return new StatusCall{fn, user_data}; }
  static void deliver(void* record, void* stream, int status) noexcept;  // calls, then frees
  static void discard(void* record) noexcept;              // the enqueue failed
};

class GraphApi {
 public:
  virtual ~GraphApi() = default;
  virtual const char* name() const = 0;  // "runtime" or "driver"

  virtual void begin_capture(cudaStream_t stream, CaptureMode mode) const = 0;
  virtual Graph create_graph() const = 0;
  virtual cudaGraphNode_t add_host_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, HostFn fn,
                                        void* user_data) const = 0;
  virtual void launch(cudaGraphExec_t exec, cudaStream_t stream) const = 0;

  // Checked, written once here over each API's try_ form below: each throws the CudaError
  // its try_ form's ApiResult describes.
  Graph end_capture(cudaStream_t stream) const;
  void launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const;
  GraphExec instantiate(cudaGraph_t graph) const;  // flags 0
  void synchronize(cudaStream_t stream) const;
  // For destructors, which must not throw: a failure is reported to the active scenario.
  void synchronize_nothrow(cudaStream_t stream) const noexcept;
  // Enqueues a stream callback (cudaStreamAddCallback style) that calls fn(stream, status,
  // user_data) with the stream and the status CUDA handed it.
  void add_stream_callback(cudaStream_t stream, StatusFn fn, void* user_data) const;

  // Unchecked forms, for contract scenarios that expect an error (and the checked ones).
  virtual ApiResult try_add_stream_callback(cudaStream_t stream, StatusFn fn, void* user_data) const = 0;
  virtual ApiResult try_end_capture(cudaStream_t stream, Graph& graph_out) const = 0;
  // 0 none, 1 active, 2 invalidated (the same numbers in both APIs).
  virtual int capture_status(cudaStream_t stream) const = 0;
  virtual ApiResult try_synchronize(cudaStream_t stream) const = 0;
  virtual ApiResult try_launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const = 0;
  // cudaStreamQuery / cuStreamQuery, unchecked: a host function calls it to test the
  // rule that host functions must not call CUDA.
  virtual ApiResult query_stream(cudaStream_t stream) const = 0;
  // This API's name for an error code (cudaErrorX or CUDA_ERROR_X).
  virtual std::string error_name(int code) const = 0;

  // The graph a capture on `stream` is building; nullptr when it is not capturing.
  virtual cudaGraph_t capturing_graph(cudaStream_t stream) const = 0;
  // Ties `object` to `graph` through a CUDA user object: destroy(object) runs once, on a
  // CUDA thread, after the graph and every exec made from it are destroyed and their
  // launches have finished. destroy must not call CUDA. Takes `object` in every case: if
  // this throws, destroy(object) has run or will run; the caller never frees it.
  virtual void retain_with_graph(cudaGraph_t graph, void* object, HostFn destroy) const = 0;

  // Other nodes, for graphs that mix them with host nodes. The kernel runs one thread in
  // one block; `args` as for cudaLaunchKernel. The copy may be between any two pointers
  // the device can reach (pinned or device memory).
  virtual cudaGraphNode_t add_kernel_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                          const void* kernel, void** args) const = 0;
  virtual cudaGraphNode_t add_memcpy_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, void* dst,
                                          const void* src, std::size_t bytes) const = 0;
  // CUDA copies `child` into the node: the caller may destroy it afterwards.
  virtual cudaGraphNode_t add_child_graph_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                               cudaGraph_t child) const = 0;
  virtual Graph clone(cudaGraph_t graph) const = 0;

  // Changing host nodes: in the graph (execs made before keep the old function), or in
  // one exec (from its next launch).
  virtual void set_host_node(cudaGraphNode_t node, HostFn fn, void* user_data) const = 0;
  virtual void exec_set_host_node(cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn, void* user_data) const = 0;
  // cudaGraphExecUpdate / cuGraphExecUpdate, unchecked (12.0 or newer).
  virtual ApiResult try_exec_update(cudaGraphExec_t exec, cudaGraph_t graph) const = 0;
  virtual void upload(cudaGraphExec_t exec, cudaStream_t stream) const = 0;

  // Fork and join across streams (also inside a capture).
  virtual void record_event(cudaEvent_t event, cudaStream_t stream) const = 0;
  virtual void wait_event(cudaStream_t stream, cudaEvent_t event) const = 0;
  // Capture into an existing graph, after `deps` (12.3 or newer).
  virtual void begin_capture_to_graph(cudaStream_t stream, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                      CaptureMode mode) const = 0;

  // The objects a scenario works with, and what its graphs hold: CUDA's own by default
  // (graph_api.cpp); a CPU stand-in of CUDA (tests/sim_cuda.hpp) makes and reads its own.
  virtual Stream make_stream() const;
  virtual Event make_event() const;
  // The graph's host nodes, in the order cudaGraphGetNodes lists them.
  virtual std::vector<cudaGraphNode_t> host_nodes(cudaGraph_t graph) const;
  virtual GraphShape graph_shape(cudaGraph_t graph) const;
  virtual HostNodeParams host_node_params(cudaGraphNode_t node) const;
  // What the fuzz family's programs do besides host functions, through the runtime for
  // both APIs (the calls they made before they came here), checked:
  // the nodes the next node captured on `stream` will depend on (cudaStreamGetCaptureInfo);
  virtual std::vector<cudaGraphNode_t> capture_dependencies(cudaStream_t stream) const;
  // `node` of the graph `clone` was cloned from, as it is in the clone (cudaGraphNodeFindInClone);
  virtual cudaGraphNode_t find_in_clone(cudaGraphNode_t node, cudaGraph_t clone) const;
  virtual cudaGraphNode_t add_empty_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps) const;
  // a kernel of one thread in one block on `stream` (`args` as for cudaLaunchKernel; the
  // typed form is launch_kernel(api, ...) in kernel_launch.hpp), and a copy between any two
  // pointers the device can reach;
  virtual void launch_kernel(cudaStream_t stream, const void* kernel, void** args) const;
  virtual void copy_async(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) const;
  // loads `kernel`'s module now (cudaFuncGetAttributes), not at its first launch;
  virtual void load_kernel(const void* kernel) const;
  // page-locked host memory the device can read and write (make_pinned);
  virtual PinnedMemory make_pinned(std::size_t bytes) const;
  // makes `device` the calling thread's (a new host thread starts on device 0).
  virtual void use_device(int device) const;

  // Contract checks, unchecked. Instantiation for device launch (12.0 or newer);
  // `result_info` receives cudaGraphInstantiateResult / CUgraphInstantiateResult.
  virtual ApiResult try_instantiate_for_device_launch(cudaGraph_t graph, GraphExec& exec_out,
                                                      int& result_info) const = 0;
  // Adds a conditional node with one body (12.4 or newer); returns the body graph, which
  // the node owns. The condition starts at `default_value` on every launch.
  virtual cudaGraph_t add_conditional_node(cudaGraph_t graph, ConditionalKind kind, unsigned default_value) const = 0;
  // Unchecked instantiate (flags 0).
  virtual ApiResult try_instantiate(cudaGraph_t graph, GraphExec& exec_out) const = 0;

  // After a scenario: why this process's context can run no further scenario (a sticky
  // error such as a device fault leaves, or a capture left open that breaks every other
  // thread's calls), or empty when it can. Waits for the device to be idle first. Both
  // APIs share the primary context, so CUDA's answer is written once (graph_api.cpp); a
  // CPU stand-in answers for its own.
  virtual std::string context_problem() const;

  // A call CUDA counts as potentially unsafe while a capture is open (a 1-byte cudaMalloc,
  // then its cudaFree), unchecked: what shows which mode a capture was begun in. From a
  // thread in the default capture mode it is refused (cudaErrorStreamCaptureUnsupported,
  // and that capture is invalidated) while any other thread holds a global-mode capture
  // open; a thread-local or relaxed capture elsewhere lets it through.
  virtual ApiResult try_unsafe_call() const;
};

// begin(), enqueue(), end(): a capture on `stream` whoever begins and ends it. If
// `enqueue` throws, CUDA ends the capture and its graph is discarded before the
// exception goes on.
template <class Begin, class Enqueue, class End>
Graph capture_between(const GraphApi& api, cudaStream_t stream, Begin&& begin, Enqueue&& enqueue, End&& end) {
  begin();
  try {
    enqueue();
  } catch (...) {
    Graph discarded;
    api.try_end_capture(stream, discarded);
    throw;
  }
  return end();
}

// Captures what `enqueue` puts on `stream` into a graph. If `enqueue` throws, the capture
// is ended and its graph discarded before the exception goes on: no stream is left
// capturing (which would break every later scenario in global mode).
template <class Enqueue>
Graph capture_graph(const GraphApi& api, cudaStream_t stream, CaptureMode mode, Enqueue&& enqueue) {
  return capture_between(
      api, stream, [&] { api.begin_capture(stream, mode); }, enqueue, [&] { return api.end_capture(stream); });
}

// "runtime" or "driver"; throws std::invalid_argument for anything else.
const GraphApi& graph_api(const std::string& name);
// The two implementations (graph_api_runtime.cpp, graph_api_driver.cpp).
const GraphApi& runtime_graph_api();
const GraphApi& driver_graph_api();


}  // namespace hostcb
