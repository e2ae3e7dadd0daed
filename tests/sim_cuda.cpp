#include "sim_cuda.hpp"

#include <map>
#include <memory>
#include <stdexcept>

#include "cuda/cuda_check.hpp"
#include "model/errors.hpp"

namespace hostcb::sim {

namespace {

constexpr int kInvalidValue = 1;
constexpr int kCaptureUnsupported = 900;
constexpr int kCaptureInvalidated = 901;
constexpr int kExecUpdateFailure = 910;

// A user object: destroy(object) runs once, when the last graph or exec holding it goes.
struct UserObject {
  void* object;
  HostFn destroy;
  int refs;
};
void retain(UserObject* u) { ++u->refs; }
void release(UserObject* u) {
  if (--u->refs > 0) return;
  u->destroy(u->object);
  delete u;
}

struct SimGraph;
struct Node {
  enum class Kind { host, child, empty };
  Kind kind = Kind::empty;
  HostNodeParams params;
  std::vector<Node*> deps;
  std::unique_ptr<SimGraph> child;  // a child-graph node's own copy of the graph
};
struct SimGraph {
  std::vector<std::unique_ptr<Node>> nodes;  // in the order added: every edge points back
  std::vector<UserObject*> user_objects;     // the references this graph holds
  SimGraph() = default;
  SimGraph(const SimGraph&) = delete;
  ~SimGraph() {
    for (UserObject* u : user_objects) release(u);
  }
};

// A copy holds references of its own to the original's user objects, as cudaGraphClone's does.
std::unique_ptr<SimGraph> copy_of(const SimGraph& graph) {
  auto copy = std::make_unique<SimGraph>();
  std::map<const Node*, Node*> mapped;
  for (const auto& node : graph.nodes) {
    auto made = std::make_unique<Node>();
    made->kind = node->kind;
    made->params = node->params;
    for (Node* dep : node->deps) made->deps.push_back(mapped.at(dep));
    if (node->child) made->child = copy_of(*node->child);
    mapped[node.get()] = made.get();
    copy->nodes.push_back(std::move(made));
  }
  for (UserObject* u : graph.user_objects) {
    retain(u);
    copy->user_objects.push_back(u);
  }
  return copy;
}

// An exec: the host nodes it calls, its children's included, in launch order, each with
// the graph node it was made from; and references to every user object they held.
struct SimExec {
  struct Call {
    const Node* origin;
    HostNodeParams params;
  };
  std::vector<Call> calls;
  std::vector<UserObject*> user_objects;
  SimExec() = default;
  SimExec(const SimExec&) = delete;
  ~SimExec() {
    for (UserObject* u : user_objects) release(u);
  }
};

void flatten(const SimGraph& graph, SimExec& exec) {
  for (UserObject* u : graph.user_objects) {
    retain(u);
    exec.user_objects.push_back(u);
  }
  for (const auto& node : graph.nodes) {
    if (node->kind == Node::Kind::host) exec.calls.push_back({node.get(), node->params});
    if (node->child) flatten(*node->child, exec);
  }
}

// A capture under way: the graph it builds (owned by the capture until it ends, unless it
// captures into a graph someone else owns) and the stream that began it.
struct Capture {
  SimGraph* graph = nullptr;
  bool into_existing = false;
  bool invalidated = false;
  bool ended = false;
  const void* origin = nullptr;
};
struct SimStream {
  std::shared_ptr<Capture> capture;  // the capture it takes part in, if any
  std::vector<Node*> tail;           // what the next captured node on it depends on
  int sticky = 0;
};
struct SimEvent {
  std::shared_ptr<Capture> capture;  // recorded during this capture, if any
  std::vector<Node*> tail;
};

int g_context_error = 0;  // fail_context's: every stream's sticky error from then on
int sticky_of(cudaStream_t stream) {
  const int own = reinterpret_cast<const SimStream*>(stream)->sticky;
  return g_context_error ? g_context_error : own;
}

SimGraph* as_graph(cudaGraph_t graph) { return reinterpret_cast<SimGraph*>(graph); }
SimExec* as_exec(cudaGraphExec_t exec) { return reinterpret_cast<SimExec*>(exec); }
SimStream* as_stream(cudaStream_t stream) { return reinterpret_cast<SimStream*>(stream); }
SimEvent* as_event(cudaEvent_t event) { return reinterpret_cast<SimEvent*>(event); }
Node* as_node(cudaGraphNode_t node) { return reinterpret_cast<Node*>(node); }
cudaGraphNode_t handle(Node* node) { return reinterpret_cast<cudaGraphNode_t>(node); }

void destroy_graph(cudaGraph_t graph) noexcept { delete as_graph(graph); }
void destroy_exec(cudaGraphExec_t exec) noexcept { delete as_exec(exec); }
void destroy_stream(cudaStream_t stream) noexcept { delete as_stream(stream); }
void destroy_event(cudaEvent_t event) noexcept { delete as_event(event); }
Graph owned(SimGraph* graph) { return Graph(reinterpret_cast<cudaGraph_t>(graph), &destroy_graph); }

std::string name_of(int code) { return code == 0 ? "success" : str("sim_error_", code); }

[[noreturn]] void fail(const char* call, int code) { throw CudaError(call, code, name_of(code), HOSTCB_HERE); }
// A try_ form's result, with the call GraphApi's checked form names when it throws.
ApiResult sim_result(int code, const char* call) { return {code, name_of(code), call, HOSTCB_HERE}; }
[[noreturn]] void not_simulated(const char* what) {
  throw std::logic_error(str("the CPU stand-in of CUDA has no ", what));
}

// The capture `stream` takes part in now, or nullptr.
Capture* capturing(cudaStream_t stream) {
  SimStream* s = as_stream(stream);
  if (s->capture && s->capture->ended) {
    s->capture.reset();
    s->tail.clear();
  }
  return s->capture.get();
}

Node* add_node(SimGraph& graph, const std::vector<cudaGraphNode_t>& deps, Node::Kind kind) {
  auto node = std::make_unique<Node>();
  node->kind = kind;
  for (cudaGraphNode_t dep : deps) node->deps.push_back(as_node(dep));
  graph.nodes.push_back(std::move(node));
  return graph.nodes.back().get();
}

class SimApi final : public GraphApi {
 public:
  const char* name() const override { return "sim"; }

  void begin_capture(cudaStream_t stream, CaptureMode) const override {
    if (capturing(stream)) fail("begin_capture on a capturing stream", kInvalidValue);
    auto capture = std::make_shared<Capture>();
    capture->graph = new SimGraph;
    capture->origin = stream;
    as_stream(stream)->capture = capture;
    as_stream(stream)->tail.clear();
  }
  void begin_capture_to_graph(cudaStream_t stream, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                              CaptureMode) const override {
    if (capturing(stream)) fail("begin_capture_to_graph on a capturing stream", kInvalidValue);
    auto capture = std::make_shared<Capture>();
    capture->graph = as_graph(graph);
    capture->into_existing = true;
    capture->origin = stream;
    as_stream(stream)->capture = capture;
    as_stream(stream)->tail.clear();
    for (cudaGraphNode_t dep : deps) as_stream(stream)->tail.push_back(as_node(dep));
  }
  ApiResult try_end_capture(cudaStream_t stream, Graph& graph_out) const override {
    Capture* capture = capturing(stream);
    if (!capture || capture->origin != stream) return sim_result(kInvalidValue, "end_capture");
    capture->ended = true;  // every stream that joined it leaves it (capturing())
    std::unique_ptr<SimGraph> made(capture->into_existing ? nullptr : capture->graph);
    if (capture->invalidated) return sim_result(kCaptureInvalidated, "end_capture");
    graph_out = made ? owned(made.release()) : Graph(reinterpret_cast<cudaGraph_t>(capture->graph), &destroy_graph);
    return {0, "success"};
  }
  int capture_status(cudaStream_t stream) const override {
    Capture* capture = capturing(stream);
    return capture ? (capture->invalidated ? 2 : 1) : 0;
  }
  cudaGraph_t capturing_graph(cudaStream_t stream) const override {
    Capture* capture = capturing(stream);
    return capture && !capture->invalidated ? reinterpret_cast<cudaGraph_t>(capture->graph) : nullptr;
  }

  Graph create_graph() const override { return owned(new SimGraph); }
  Graph clone(cudaGraph_t graph) const override { return owned(copy_of(*as_graph(graph)).release()); }
  cudaGraphNode_t add_host_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, HostFn fn,
                                void* user_data) const override {
    Node* node = add_node(*as_graph(graph), deps, Node::Kind::host);
    node->params = {fn, user_data};
    return handle(node);
  }
  cudaGraphNode_t add_child_graph_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                       cudaGraph_t child) const override {
    Node* node = add_node(*as_graph(graph), deps, Node::Kind::child);
    node->child = copy_of(*as_graph(child));
    return handle(node);
  }
  void retain_with_graph(cudaGraph_t graph, void* object, HostFn destroy) const override {
    as_graph(graph)->user_objects.push_back(new UserObject{object, destroy, 1});
  }

  ApiResult try_launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const override {
    SimStream* s = as_stream(stream);
    if (int sticky = sticky_of(stream)) return sim_result(sticky, "launch_host_func");
    if (Capture* capture = capturing(stream)) {
      if (capture->invalidated) return sim_result(kCaptureInvalidated, "launch_host_func");
      Node* node = add_node(*capture->graph, {}, Node::Kind::host);
      node->deps = s->tail;
      node->params = {fn, user_data};
      s->tail = {node};
      return {0, "success"};
    }
    fn(user_data);
    return {0, "success"};
  }
  ApiResult try_add_stream_callback(cudaStream_t stream, StatusFn fn, void* user_data) const override {
    if (Capture* capture = capturing(stream)) {
      capture->invalidated = true;
      return sim_result(kCaptureUnsupported, "add_stream_callback");
    }
    fn(stream, sticky_of(stream), user_data);
    return {0, "success"};
  }

  ApiResult try_instantiate(cudaGraph_t graph, GraphExec& exec_out) const override {
    auto exec = std::make_unique<SimExec>();
    flatten(*as_graph(graph), *exec);
    exec_out = GraphExec(reinterpret_cast<cudaGraphExec_t>(exec.release()), &destroy_exec);
    return {0, "success", "instantiate", HOSTCB_HERE};
  }
  void launch(cudaGraphExec_t exec, cudaStream_t stream) const override {
    if (capturing(stream)) not_simulated("launches into a capture");
    if (int sticky = sticky_of(stream)) fail("launch", sticky);
    const auto& calls = as_exec(exec)->calls;
    for (std::size_t i = 0; i < calls.size(); ++i) calls[i].params.fn(calls[i].params.user_data);
  }
  void upload(cudaGraphExec_t, cudaStream_t) const override {}
  ApiResult try_synchronize(cudaStream_t stream) const override {
    return sim_result(sticky_of(stream), "synchronize");
  }
  ApiResult query_stream(cudaStream_t) const override { return {0, "success"}; }
  std::string error_name(int code) const override { return name_of(code); }

  void set_host_node(cudaGraphNode_t node, HostFn fn, void* user_data) const override {
    as_node(node)->params = {fn, user_data};
  }
  void exec_set_host_node(cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn, void* user_data) const override {
    for (auto& call : as_exec(exec)->calls)
      if (call.origin == as_node(node)) {
        call.params = {fn, user_data};
        return;
      }
    fail("exec_set_host_node of a node the exec was not made from", kInvalidValue);
  }
  // As CUDA's: the exec calls what the graph holds, and holds the graph's user objects instead of its own.
  ApiResult try_exec_update(cudaGraphExec_t exec, cudaGraph_t graph) const override {
    SimExec updated;
    flatten(*as_graph(graph), updated);
    SimExec& target = *as_exec(exec);
    if (updated.calls.size() != target.calls.size()) return {kExecUpdateFailure, name_of(kExecUpdateFailure)};
    for (std::size_t i = 0; i < target.calls.size(); ++i) target.calls[i].params = updated.calls[i].params;
    std::swap(target.user_objects, updated.user_objects);  // the old ones go with `updated`
    return {0, "success"};
  }

  void record_event(cudaEvent_t event, cudaStream_t stream) const override {
    SimEvent* e = as_event(event);
    Capture* capture = capturing(stream);
    e->capture = capture ? as_stream(stream)->capture : nullptr;
    e->tail = capture ? as_stream(stream)->tail : std::vector<Node*>{};
  }
  // A stream that waits on an event recorded in a capture joins that capture.
  void wait_event(cudaStream_t stream, cudaEvent_t event) const override {
    SimEvent* e = as_event(event);
    if (!e->capture || e->capture->ended) return;  // outside captures everything has already run
    SimStream* s = as_stream(stream);
    Capture* mine = capturing(stream);
    if (!mine) {
      s->capture = e->capture;
      s->tail = e->tail;
      return;
    }
    if (mine != e->capture.get()) not_simulated("streams joining two captures");
    for (Node* node : e->tail) s->tail.push_back(node);
  }

  Stream make_stream() const override {
    if (g_context_error) fail("make_stream", g_context_error);
    return Stream(reinterpret_cast<cudaStream_t>(new SimStream), &destroy_stream);
  }
  Event make_event() const override { return Event(reinterpret_cast<cudaEvent_t>(new SimEvent), &destroy_event); }
  std::vector<cudaGraphNode_t> host_nodes(cudaGraph_t graph) const override {
    std::vector<cudaGraphNode_t> found;
    for (const auto& node : as_graph(graph)->nodes)
      if (node->kind == Node::Kind::host) found.push_back(handle(node.get()));
    return found;
  }
  GraphShape graph_shape(cudaGraph_t graph) const override {
    GraphShape shape;
    shape.nodes = as_graph(graph)->nodes.size();
    shape.host_nodes = host_nodes(graph).size();
    return shape;
  }
  HostNodeParams host_node_params(cudaGraphNode_t node) const override { return as_node(node)->params; }

  cudaGraphNode_t add_kernel_node(cudaGraph_t, const std::vector<cudaGraphNode_t>&, const void*, void**) const override {
    not_simulated("kernels");
  }
  cudaGraphNode_t add_memcpy_node(cudaGraph_t, const std::vector<cudaGraphNode_t>&, void*, const void*,
                                  std::size_t) const override {
    not_simulated("copies");
  }
  std::string context_problem() const override {
    return g_context_error ? str("the context holds ", name_of(g_context_error)) : "";
  }

  ApiResult try_instantiate_for_device_launch(cudaGraph_t, GraphExec&, int&) const override {
    not_simulated("device launch");
  }
  cudaGraph_t add_conditional_node(cudaGraph_t, ConditionalKind, unsigned) const override {
    not_simulated("conditional nodes");
  }
};

}  // namespace

const GraphApi& api() {
  static const SimApi instance;
  return instance;
}

void fail_stream(cudaStream_t stream, int code) { as_stream(stream)->sticky = code; }

void fail_context(int code) { g_context_error = code; }

}  // namespace hostcb::sim
