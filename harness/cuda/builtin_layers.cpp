// The built-in forwarding layers: direct (CUDA itself), oneshot (the shipped bug) and
// graph_owned (the fix). Each has every operation, so every family reaches each.
#include <atomic>
#include <mutex>

#include "cuda/forwarding.hpp"

namespace hostcb {

namespace {

// A base that goes straight to CUDA for the operations a layer does not wrap.
class PassThrough : public Forwarder {
 public:
  void begin_capture(const GraphApi& api, cudaStream_t stream, CaptureMode mode) override {
    api.begin_capture(stream, mode);
  }
  Graph end_capture(const GraphApi& api, cudaStream_t stream) override { return api.end_capture(stream); }
  void add_stream_callback(const GraphApi& api, cudaStream_t stream, StatusFn fn, void* user_data) override {
    api.add_stream_callback(stream, fn, user_data);
  }
};

class DirectForwarder final : public PassThrough {
 public:
  const char* name() const override { return "direct"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    api.launch_host_func(stream, fn, user_data);
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return api.add_host_node(graph, deps, fn, user_data);
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t, cudaGraphNode_t node, HostFn fn, void* user_data) override {
    api.set_host_node(node, fn, user_data);
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    api.exec_set_host_node(exec, node, fn, user_data);
  }
};

// What a wrapper keeps between the enqueue and the call.
struct Record {
  HostFn fn;
  void* user_data;
};
struct StatusRecord {
  StatusFn fn;
  void* user_data;
};

// A stream callback is called exactly once, so calling then freeing is right for it,
// in every layer.
void call_status_and_free(void* stream, int status, void* opaque) {
  auto* record = static_cast<StatusRecord*>(opaque);
  StatusRecord copy = *record;
  delete record;
  copy.fn(stream, status, copy.user_data);
}
void add_status_record(const GraphApi& api, cudaStream_t stream, StatusFn fn, void* user_data) {
  auto* record = new StatusRecord{fn, user_data};
  try {
    api.add_stream_callback(stream, &call_status_and_free, record);
  } catch (...) {
    delete record;  // GraphApi frees its own record on a failed enqueue, not ours
    throw;
  }
}

// Hands `record` to `enqueue` (which passes it to CUDA); frees it if that throws.
template <class Enqueue>
auto enqueue_record(Record* record, Enqueue&& enqueue) {
  try {
    return enqueue(record);
  } catch (...) {
    delete record;
    throw;
  }
}

// The shape of the shipped bug: call, then free. Deliberately wrong under replay.
class OneShotForwarder final : public PassThrough {
 public:
  const char* name() const override { return "oneshot"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    enqueue_record(new Record{fn, user_data}, [&](Record* r) { api.launch_host_func(stream, &call_and_free, r); });
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return enqueue_record(new Record{fn, user_data},
                          [&](Record* r) { return api.add_host_node(graph, deps, &call_and_free, r); });
  }
  void add_stream_callback(const GraphApi& api, cudaStream_t stream, StatusFn fn, void* user_data) override {
    add_status_record(api, stream, fn, user_data);
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t, cudaGraphNode_t node, HostFn fn, void* user_data) override {
    enqueue_record(new Record{fn, user_data}, [&](Record* r) { api.set_host_node(node, &call_and_free, r); });
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    enqueue_record(new Record{fn, user_data}, [&](Record* r) { api.exec_set_host_node(exec, node, &call_and_free, r); });
  }

 private:
  static void call_and_free(void* opaque) {
    auto* record = static_cast<Record*>(opaque);
    record->fn(record->user_data);
    delete record;  // the bug: a graph calls this trampoline again on its next launch
  }
};

// The fix: the graph owns the record through a CUDA user object. Outside capture (plain
// stream work, called exactly once) the record is freed after its call. An exec's own
// host-node update has no owner to tie to (CUDA tells no one when an exec is destroyed),
// so those records live as long as the layer.
class GraphOwnedForwarder final : public PassThrough {
 public:
  const char* name() const override { return "graph_owned"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    cudaGraph_t graph = api.capturing_graph(stream);
    if (graph) {
      Record* record = owned_by(api, graph, fn, user_data);
      api.launch_host_func(stream, &call, record);
      return;
    }
    live_.fetch_add(1);
    enqueue_record(new Record{fn, user_data}, [&](Record* r) {
      try {
        api.launch_host_func(stream, &call_and_destroy, r);
      } catch (...) {
        live_.fetch_sub(1);
        throw;
      }
    });
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return api.add_host_node(graph, deps, &call, owned_by(api, graph, fn, user_data));
  }
  void add_stream_callback(const GraphApi& api, cudaStream_t stream, StatusFn fn, void* user_data) override {
    add_status_record(api, stream, fn, user_data);
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t graph, cudaGraphNode_t node, HostFn fn,
                           void* user_data) override {
    api.set_host_node(node, &call, owned_by(api, graph, fn, user_data));
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    std::lock_guard<std::mutex> lock(mutex_);
    exec_records_.push_back(std::make_unique<Record>(Record{fn, user_data}));
    api.exec_set_host_node(exec, node, &call, exec_records_.back().get());
  }
  std::int64_t live_records() const override { return live_.load(); }

 private:
  // A record the graph owns from here, even on a throw.
  static Record* owned_by(const GraphApi& api, cudaGraph_t graph, HostFn fn, void* user_data) {
    live_.fetch_add(1);
    auto* record = new Record{fn, user_data};
    api.retain_with_graph(graph, record, &destroy);
    return record;
  }
  static void call(void* opaque) {
    auto* record = static_cast<Record*>(opaque);
    record->fn(record->user_data);
  }
  static void destroy(void* opaque) {  // runs on a CUDA thread: no CUDA calls here
    delete static_cast<Record*>(opaque);
    live_.fetch_sub(1);
  }
  static void call_and_destroy(void* opaque) {
    call(opaque);
    destroy(opaque);
  }
  static std::atomic<std::int64_t> live_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Record>> exec_records_;
};
std::atomic<std::int64_t> GraphOwnedForwarder::live_{0};

}  // namespace

std::vector<std::unique_ptr<Forwarder>> make_builtin_layers() {
  std::vector<std::unique_ptr<Forwarder>> layers;
  layers.push_back(std::make_unique<DirectForwarder>());
  layers.push_back(std::make_unique<OneShotForwarder>());
  layers.push_back(std::make_unique<GraphOwnedForwarder>());
  return layers;
}

}  // namespace hostcb
