#include "cuda/forwarding.hpp"

#include <atomic>
#include <stdexcept>

namespace hostcb {

namespace {

class DirectForwarder final : public Forwarder {
 public:
  const char* name() const override { return "direct"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    api.launch_host_func(stream, fn, user_data);
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return api.add_host_node(graph, deps, fn, user_data);
  }
};

// What a wrapper keeps between the enqueue and the call.
struct Record {
  HostFn fn;
  void* user_data;
};

// The shape of the shipped bug: call, then free. Deliberately wrong under replay.
class OneShotForwarder final : public Forwarder {
 public:
  const char* name() const override { return "oneshot"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    auto* record = new Record{fn, user_data};
    try {
      api.launch_host_func(stream, &call_and_free, record);
    } catch (...) {
      delete record;
      throw;
    }
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    auto* record = new Record{fn, user_data};
    try {
      return api.add_host_node(graph, deps, &call_and_free, record);
    } catch (...) {
      delete record;
      throw;
    }
  }

 private:
  static void call_and_free(void* opaque) {
    auto* record = static_cast<Record*>(opaque);
    record->fn(record->user_data);
    delete record;  // the bug: a graph calls this trampoline again on its next launch
  }
};

// The fix: the graph owns the record through a CUDA user object. Outside capture (plain
// stream work, called exactly once) the record is freed after its call.
class GraphOwnedForwarder final : public Forwarder {
 public:
  const char* name() const override { return "graph_owned"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    cudaGraph_t graph = api.capturing_graph(stream);
    Record* record = make(fn, user_data);
    if (graph) {
      api.retain_with_graph(graph, record, &destroy);  // the graph owns it from here, even on a throw
      api.launch_host_func(stream, &call, record);
      return;
    }
    try {
      api.launch_host_func(stream, &call_and_destroy, record);
    } catch (...) {
      destroy(record);  // never enqueued: still ours
      throw;
    }
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    Record* record = make(fn, user_data);
    api.retain_with_graph(graph, record, &destroy);  // the graph owns it from here, even on a throw
    return api.add_host_node(graph, deps, &call, record);
  }
  std::int64_t live_records() const override { return live_.load(); }

 private:
  static Record* make(HostFn fn, void* user_data) {
    live_.fetch_add(1);
    return new Record{fn, user_data};
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
};
std::atomic<std::int64_t> GraphOwnedForwarder::live_{0};

}  // namespace

namespace {
struct Layers {
  DirectForwarder direct;
  OneShotForwarder oneshot;
  GraphOwnedForwarder graph_owned;
  std::vector<std::unique_ptr<Forwarder>> adapters;
  std::vector<Forwarder*> all() {
    std::vector<Forwarder*> out{&direct, &oneshot, &graph_owned};
    for (auto& a : adapters) out.push_back(a.get());
    return out;
  }
};
Layers& layers() {
  static Layers instance;
  return instance;
}
}  // namespace

Forwarder& forwarder(const std::string& name) {
  for (Forwarder* layer : layers().all())
    if (name == layer->name()) return *layer;
  throw std::invalid_argument("unknown forwarding layer '" + name + "'");
}

std::vector<std::string> forwarder_names() {
  std::vector<std::string> names;
  for (Forwarder* layer : layers().all()) names.push_back(layer->name());
  return names;
}

void register_forwarder(std::unique_ptr<Forwarder> layer) {
  for (Forwarder* existing : layers().all())
    if (std::string(existing->name()) == layer->name())
      throw std::invalid_argument(std::string("a forwarding layer named '") + layer->name() + "' is already loaded");
  layers().adapters.push_back(std::move(layer));
}

std::vector<const Forwarder*> registered_adapters() {
  std::vector<const Forwarder*> out;
  for (auto& a : layers().adapters) out.push_back(a.get());
  return out;
}

}  // namespace hostcb
