#include "sim_cuda.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>

#include "cuda/cuda_check.hpp"
#include "model/errors.hpp"

namespace hostcb::sim {

namespace {

constexpr int kInvalidValue = 1;
constexpr int kCaptureUnsupported = 900;
constexpr int kCaptureInvalidated = 901;
constexpr int kExecUpdateFailure = 910;

// The stand-in's state (every object below, the kernels defined) is under this lock:
// each entry point takes it, and lets it go before it runs what it ran (sim_cuda.hpp).
// Recursive: a destructor's user object may be released under it from any entry point.
std::recursive_mutex& state() {
  static std::recursive_mutex mutex;
  return mutex;
}
using Lock = std::lock_guard<std::recursive_mutex>;

std::map<const void*, CpuKernel>& kernels() {
  static std::map<const void*, CpuKernel> defined;
  return defined;
}

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
  enum class Kind { host, kernel, copy, child, empty };
  Kind kind = Kind::empty;
  HostNodeParams params;         // a host node's
  std::function<void()> work;    // a kernel's CPU work or a copy, its arguments bound
  std::vector<Node*> deps;
  std::unique_ptr<SimGraph> child;  // a child-graph node's own copy of the graph
};
struct SimGraph {
  std::vector<std::unique_ptr<Node>> nodes;  // in the order added: every edge points back
  std::vector<UserObject*> user_objects;     // the references this graph holds
  std::map<const Node*, Node*> copies;       // a copy: the original's node -> its copy here
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
    made->work = node->work;
    for (Node* dep : node->deps) made->deps.push_back(mapped.at(dep));
    if (node->child) made->child = copy_of(*node->child);
    mapped[node.get()] = made.get();
    copy->nodes.push_back(std::move(made));
  }
  copy->copies = std::move(mapped);
  for (UserObject* u : graph.user_objects) {
    retain(u);
    copy->user_objects.push_back(u);
  }
  return copy;
}

// An exec: the nodes it runs (host, kernel and copy), its children's included, in launch
// order, each with the graph node it was made from; and references to every user object
// they held.
struct SimExec {
  struct Step {
    const Node* origin;
    Node::Kind kind;
    HostNodeParams params;
    std::function<void()> work;
    void run() const {
      if (kind == Node::Kind::host) params.fn(params.user_data);
      else work();
    }
  };
  std::vector<Step> steps;
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
    if (node->kind == Node::Kind::host || node->kind == Node::Kind::kernel || node->kind == Node::Kind::copy)
      exec.steps.push_back({node.get(), node->kind, node->params, node->work});
    if (node->child) flatten(*node->child, exec);
  }
}

// A capture under way: the graph it builds (owned by the capture until it ends, unless it
// captures into a graph someone else owns), the stream that began it, its mode and the
// thread that began it (what try_unsafe_call asks).
struct Capture {
  SimGraph* graph = nullptr;
  bool into_existing = false;
  bool invalidated = false;
  bool ended = false;
  const void* origin = nullptr;
  CaptureMode mode = CaptureMode::global;
  std::thread::id thread;
};
// Every capture begun and not yet ended or gone.
std::vector<std::weak_ptr<Capture>>& open_captures() {
  static std::vector<std::weak_ptr<Capture>> open;
  return open;
}
std::shared_ptr<Capture> begun_capture(CaptureMode mode) {
  auto capture = std::make_shared<Capture>();
  capture->mode = mode;
  capture->thread = std::this_thread::get_id();
  open_captures().push_back(capture);
  return capture;
}
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

void destroy_graph(cudaGraph_t graph) noexcept {
  Lock lock(state());
  delete as_graph(graph);
}
void destroy_exec(cudaGraphExec_t exec) noexcept {
  Lock lock(state());
  delete as_exec(exec);
}
void destroy_stream(cudaStream_t stream) noexcept {
  Lock lock(state());
  delete as_stream(stream);
}
void destroy_event(cudaEvent_t event) noexcept {
  Lock lock(state());
  delete as_event(event);
}
void free_memory(void* memory) noexcept { std::free(memory); }
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

// On a capturing stream, a new node of `kind` after what the stream enqueued last (the
// caller fills it in); nullptr on a stream that runs its work now.
Node* captured_node(cudaStream_t stream, Node::Kind kind, const char* call) {
  Capture* capture = capturing(stream);
  if (!capture) return nullptr;
  if (capture->invalidated) fail(call, kCaptureInvalidated);
  SimStream* s = as_stream(stream);
  Node* node = add_node(*capture->graph, {}, kind);
  node->deps = s->tail;
  s->tail = {node};
  return node;
}

// A defined kernel's work with `args` bound (sim_cuda.hpp: define_kernel).
std::function<void()> kernel_work(const void* kernel, void** args) {
  auto defined = kernels().find(kernel);
  if (defined == kernels().end()) not_simulated("kernels but those define_kernel gave it");
  return defined->second(args);
}

std::function<void()> copy_work(void* dst, const void* src, std::size_t bytes) {
  return [dst, src, bytes] { std::memcpy(dst, src, bytes); };
}

class SimApi final : public GraphApi {
 public:
  const char* name() const override { return "sim"; }

  void begin_capture(cudaStream_t stream, CaptureMode mode) const override {
    Lock lock(state());
    if (capturing(stream)) fail("begin_capture on a capturing stream", kInvalidValue);
    auto capture = begun_capture(mode);
    capture->graph = new SimGraph;
    capture->origin = stream;
    as_stream(stream)->capture = capture;
    as_stream(stream)->tail.clear();
  }
  void begin_capture_to_graph(cudaStream_t stream, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                              CaptureMode mode) const override {
    Lock lock(state());
    if (capturing(stream)) fail("begin_capture_to_graph on a capturing stream", kInvalidValue);
    auto capture = begun_capture(mode);
    capture->graph = as_graph(graph);
    capture->into_existing = true;
    capture->origin = stream;
    as_stream(stream)->capture = capture;
    as_stream(stream)->tail.clear();
    for (cudaGraphNode_t dep : deps) as_stream(stream)->tail.push_back(as_node(dep));
  }
  ApiResult try_end_capture(cudaStream_t stream, Graph& graph_out) const override {
    Lock lock(state());
    Capture* capture = capturing(stream);
    if (!capture || capture->origin != stream) return sim_result(kInvalidValue, "end_capture");
    capture->ended = true;  // every stream that joined it leaves it (capturing())
    std::unique_ptr<SimGraph> made(capture->into_existing ? nullptr : capture->graph);
    if (capture->invalidated) return sim_result(kCaptureInvalidated, "end_capture");
    graph_out = made ? owned(made.release()) : Graph(reinterpret_cast<cudaGraph_t>(capture->graph), &destroy_graph);
    return {0, "success"};
  }
  int capture_status(cudaStream_t stream) const override {
    Lock lock(state());
    Capture* capture = capturing(stream);
    return capture ? (capture->invalidated ? 2 : 1) : 0;
  }
  cudaGraph_t capturing_graph(cudaStream_t stream) const override {
    Lock lock(state());
    Capture* capture = capturing(stream);
    return capture && !capture->invalidated ? reinterpret_cast<cudaGraph_t>(capture->graph) : nullptr;
  }
  std::vector<cudaGraphNode_t> capture_dependencies(cudaStream_t stream) const override {
    Lock lock(state());
    std::vector<cudaGraphNode_t> deps;
    if (capturing(stream))
      for (Node* node : as_stream(stream)->tail) deps.push_back(handle(node));
    return deps;
  }

  Graph create_graph() const override { return owned(new SimGraph); }
  Graph clone(cudaGraph_t graph) const override {
    Lock lock(state());
    return owned(copy_of(*as_graph(graph)).release());
  }
  cudaGraphNode_t find_in_clone(cudaGraphNode_t node, cudaGraph_t clone) const override {
    Lock lock(state());
    const auto& copies = as_graph(clone)->copies;
    auto found = copies.find(as_node(node));
    if (found == copies.end()) fail("find_in_clone of a node the graph was not cloned from", kInvalidValue);
    return handle(found->second);
  }
  cudaGraphNode_t add_host_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, HostFn fn,
                                void* user_data) const override {
    Lock lock(state());
    Node* node = add_node(*as_graph(graph), deps, Node::Kind::host);
    node->params = {fn, user_data};
    return handle(node);
  }
  cudaGraphNode_t add_kernel_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, const void* kernel,
                                  void** args) const override {
    Lock lock(state());
    std::function<void()> work = kernel_work(kernel, args);
    Node* node = add_node(*as_graph(graph), deps, Node::Kind::kernel);
    node->work = std::move(work);
    return handle(node);
  }
  cudaGraphNode_t add_memcpy_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps, void* dst,
                                  const void* src, std::size_t bytes) const override {
    Lock lock(state());
    Node* node = add_node(*as_graph(graph), deps, Node::Kind::copy);
    node->work = copy_work(dst, src, bytes);
    return handle(node);
  }
  cudaGraphNode_t add_empty_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps) const override {
    Lock lock(state());
    return handle(add_node(*as_graph(graph), deps, Node::Kind::empty));
  }
  cudaGraphNode_t add_child_graph_node(cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                       cudaGraph_t child) const override {
    Lock lock(state());
    Node* node = add_node(*as_graph(graph), deps, Node::Kind::child);
    node->child = copy_of(*as_graph(child));
    return handle(node);
  }
  void retain_with_graph(cudaGraph_t graph, void* object, HostFn destroy) const override {
    Lock lock(state());
    as_graph(graph)->user_objects.push_back(new UserObject{object, destroy, 1});
  }

  // Enqueues: on a capturing stream a node, elsewhere the work, now, outside the lock.
  ApiResult try_launch_host_func(cudaStream_t stream, HostFn fn, void* user_data) const override {
    {
      Lock lock(state());
      if (int sticky = sticky_of(stream)) return sim_result(sticky, "launch_host_func");
      if (Capture* capture = capturing(stream)) {
        if (capture->invalidated) return sim_result(kCaptureInvalidated, "launch_host_func");
        captured_node(stream, Node::Kind::host, "launch_host_func")->params = {fn, user_data};
        return {0, "success"};
      }
    }
    fn(user_data);
    return {0, "success"};
  }
  void launch_kernel(cudaStream_t stream, const void* kernel, void** args) const override {
    std::function<void()> work;
    {
      Lock lock(state());
      if (int sticky = sticky_of(stream)) fail("launch_kernel", sticky);
      work = kernel_work(kernel, args);
      if (Node* node = captured_node(stream, Node::Kind::kernel, "launch_kernel")) {
        node->work = std::move(work);
        return;
      }
    }
    work();
  }
  void copy_async(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) const override {
    {
      Lock lock(state());
      if (int sticky = sticky_of(stream)) fail("copy_async", sticky);
      if (Node* node = captured_node(stream, Node::Kind::copy, "copy_async")) {
        node->work = copy_work(dst, src, bytes);
        return;
      }
    }
    std::memcpy(dst, src, bytes);
  }
  ApiResult try_add_stream_callback(cudaStream_t stream, StatusFn fn, void* user_data) const override {
    int status = 0;
    {
      Lock lock(state());
      if (Capture* capture = capturing(stream)) {
        capture->invalidated = true;
        return sim_result(kCaptureUnsupported, "add_stream_callback");
      }
      status = sticky_of(stream);
    }
    fn(stream, status, user_data);
    return {0, "success"};
  }

  ApiResult try_instantiate(cudaGraph_t graph, GraphExec& exec_out) const override {
    Lock lock(state());
    auto exec = std::make_unique<SimExec>();
    flatten(*as_graph(graph), *exec);
    exec_out = GraphExec(reinterpret_cast<cudaGraphExec_t>(exec.release()), &destroy_exec);
    return {0, "success", "instantiate", HOSTCB_HERE};
  }
  void launch(cudaGraphExec_t exec, cudaStream_t stream) const override {
    std::vector<SimExec::Step> steps;  // as the exec holds them now: later updates reach the next launch
    {
      Lock lock(state());
      if (capturing(stream)) not_simulated("launches into a capture");
      if (int sticky = sticky_of(stream)) fail("launch", sticky);
      steps = as_exec(exec)->steps;
    }
    for (const auto& step : steps) step.run();
  }
  void upload(cudaGraphExec_t, cudaStream_t) const override {}
  ApiResult try_synchronize(cudaStream_t stream) const override {
    Lock lock(state());
    return sim_result(sticky_of(stream), "synchronize");
  }
  ApiResult query_stream(cudaStream_t) const override { return {0, "success"}; }
  std::string error_name(int code) const override { return name_of(code); }

  void set_host_node(cudaGraphNode_t node, HostFn fn, void* user_data) const override {
    Lock lock(state());
    as_node(node)->params = {fn, user_data};
  }
  void exec_set_host_node(cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn, void* user_data) const override {
    Lock lock(state());
    for (auto& step : as_exec(exec)->steps)
      if (step.origin == as_node(node) && step.kind == Node::Kind::host) {
        step.params = {fn, user_data};
        return;
      }
    fail("exec_set_host_node of a node the exec was not made from", kInvalidValue);
  }
  // As CUDA's: the exec runs what the graph holds (of the same topology: the same kinds of
  // node in the same order), and holds the graph's user objects instead of its own.
  ApiResult try_exec_update(cudaGraphExec_t exec, cudaGraph_t graph) const override {
    Lock lock(state());
    SimExec updated;
    flatten(*as_graph(graph), updated);
    SimExec& target = *as_exec(exec);
    if (updated.steps.size() != target.steps.size()) return {kExecUpdateFailure, name_of(kExecUpdateFailure)};
    for (std::size_t i = 0; i < target.steps.size(); ++i)
      if (updated.steps[i].kind != target.steps[i].kind) return {kExecUpdateFailure, name_of(kExecUpdateFailure)};
    for (std::size_t i = 0; i < target.steps.size(); ++i) {
      target.steps[i].params = updated.steps[i].params;
      target.steps[i].work = updated.steps[i].work;
    }
    std::swap(target.user_objects, updated.user_objects);  // the old ones go with `updated`
    return {0, "success"};
  }

  void record_event(cudaEvent_t event, cudaStream_t stream) const override {
    Lock lock(state());
    SimEvent* e = as_event(event);
    Capture* capture = capturing(stream);
    e->capture = capture ? as_stream(stream)->capture : nullptr;
    e->tail = capture ? as_stream(stream)->tail : std::vector<Node*>{};
  }
  // A stream that waits on an event recorded in a capture joins that capture.
  void wait_event(cudaStream_t stream, cudaEvent_t event) const override {
    Lock lock(state());
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
    {
      Lock lock(state());
      if (g_context_error) fail("make_stream", g_context_error);
    }
    return Stream(reinterpret_cast<cudaStream_t>(new SimStream), &destroy_stream);
  }
  Event make_event() const override { return Event(reinterpret_cast<cudaEvent_t>(new SimEvent), &destroy_event); }
  // Plain host memory: every "device" copy and kernel here is the CPU's.
  PinnedMemory make_pinned(std::size_t bytes) const override {
    void* memory = std::calloc(bytes, 1);
    if (!memory) throw std::bad_alloc();
    return PinnedMemory(memory, &free_memory);
  }
  void load_kernel(const void* kernel) const override {
    Lock lock(state());
    if (!kernels().count(kernel)) not_simulated("kernels but those define_kernel gave it");
  }
  void use_device(int) const override {}  // one device, every thread's

  std::vector<cudaGraphNode_t> host_nodes(cudaGraph_t graph) const override {
    Lock lock(state());
    std::vector<cudaGraphNode_t> found;
    for (const auto& node : as_graph(graph)->nodes)
      if (node->kind == Node::Kind::host) found.push_back(handle(node.get()));
    return found;
  }
  GraphShape graph_shape(cudaGraph_t graph) const override {
    Lock lock(state());
    GraphShape shape;
    shape.nodes = as_graph(graph)->nodes.size();
    shape.host_nodes = host_nodes(graph).size();
    return shape;
  }
  HostNodeParams host_node_params(cudaGraphNode_t node) const override {
    Lock lock(state());
    return as_node(node)->params;
  }

  // As CUDA: refused, and the capture invalidated, while another thread holds a global-mode
  // capture open (this thread in the default mode).
  ApiResult try_unsafe_call() const override {
    Lock lock(state());
    auto& open = open_captures();
    open.erase(std::remove_if(open.begin(), open.end(),
                              [](const std::weak_ptr<Capture>& c) { return c.expired() || c.lock()->ended; }),
               open.end());
    for (const auto& weak : open) {
      auto capture = weak.lock();
      if (capture->mode == CaptureMode::global && capture->thread != std::this_thread::get_id()) {
        capture->invalidated = true;
        return sim_result(kCaptureUnsupported, "malloc");
      }
    }
    return {0, "success"};
  }

  std::string context_problem() const override {
    Lock lock(state());
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

void fail_stream(cudaStream_t stream, int code) {
  Lock lock(state());
  as_stream(stream)->sticky = code;
}

void fail_context(int code) {
  Lock lock(state());
  g_context_error = code;
}

void define_kernel(const void* kernel, CpuKernel on_cpu) {
  Lock lock(state());
  kernels()[kernel] = std::move(on_cpu);
}

}  // namespace hostcb::sim
