// Known-bad layers that only compositions reveal, for the fuzz family's controls. Each is
// right for one graph built, instantiated and launched; each is wrong once updates,
// clones, several execs and destruction are combined. They join no family's `forward`
// axis but the fuzz family's (control_only), and cases/fuzz/model.cpp simulates each, so
// the fuzz family knows which programs must catch them. Also here: what every known-bad
// layer shares (control_layer.hpp), and the list of them all.
//   frees_on_update    keeps one record per node it made (add_host_node), and frees a
//                      node's old record when the node is updated, in the graph or in an
//                      exec: an exec made before, or another exec, still calls it
//   exec_set_in_graph  graph_owned, except that an exec's host-node update is tied to the
//                      graph the node belongs to (as far as the layer knows it): freed when
//                      that graph is destroyed, though the exec still calls it
#include <algorithm>
#include <map>

#include "cuda/control_layer.hpp"

namespace hostcb {

void call_record(void* opaque) {
  auto* record = static_cast<Record*>(opaque);
  record->fn(record->user_data);
}

Record* KeepsRecords::keep(HostFn fn, void* user_data) {
  std::lock_guard<std::mutex> lock(mutex_);
  kept_.push_back(std::make_unique<Record>(Record{fn, user_data}));
  return kept_.back().get();
}

void KeepsRecords::free_record(Record* record) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = std::find_if(kept_.begin(), kept_.end(), [&](const auto& kept) { return kept.get() == record; });
  if (found != kept_.end()) kept_.erase(found);
}

Record* KeepsRecords::record_of(const GraphApi& api, cudaGraphNode_t node) {
  HostNodeParams held = api.host_node_params(node);
  return held.fn == &call_record ? static_cast<Record*>(held.user_data) : nullptr;
}

namespace {

class FreesOnUpdate final : public ControlLayer {
 public:
  const char* name() const override { return "frees_on_update"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    api.launch_host_func(stream, &call_record, new Record{fn, user_data});  // kept for good
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    auto* record = new Record{fn, user_data};
    cudaGraphNode_t node = api.add_host_node(graph, deps, &call_record, record);
    std::lock_guard<std::mutex> lock(mutex_);
    by_node_[node] = record;
    return node;
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t, cudaGraphNode_t node, HostFn fn, void* user_data) override {
    auto* record = new Record{fn, user_data};
    api.set_host_node(node, &call_record, record);
    replace(node, record);
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    auto* record = new Record{fn, user_data};
    api.exec_set_host_node(exec, node, &call_record, record);
    replace(node, record);
  }

 private:
  void replace(cudaGraphNode_t node, Record* record) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto known = by_node_.find(node);
    if (known == by_node_.end()) return;  // a captured or cloned node: the layer never saw it
    delete known->second;                 // the bug: other execs may still call it
    known->second = record;
  }
  std::map<cudaGraphNode_t, Record*> by_node_;
};

class ExecSetInGraph final : public ControlLayer {
 public:
  const char* name() const override { return "exec_set_in_graph"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    cudaGraph_t graph = api.capturing_graph(stream);
    api.launch_host_func(stream, &call_record, graph ? owned_by(api, graph, fn, user_data) : kept(fn, user_data));
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    cudaGraphNode_t node = api.add_host_node(graph, deps, &call_record, owned_by(api, graph, fn, user_data));
    std::lock_guard<std::mutex> lock(mutex_);
    graph_of_[node] = graph;
    return node;
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t graph, cudaGraphNode_t node, HostFn fn,
                           void* user_data) override {
    api.set_host_node(node, &call_record, owned_by(api, graph, fn, user_data));
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    cudaGraph_t graph = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto known = graph_of_.find(node);
      if (known != graph_of_.end()) graph = known->second;
    }
    // The bug: the graph's user object does not keep the exec's record alive for the exec.
    api.exec_set_host_node(exec, node, &call_record, graph ? owned_by(api, graph, fn, user_data) : kept(fn, user_data));
  }

 private:
  static Record* owned_by(const GraphApi& api, cudaGraph_t graph, HostFn fn, void* user_data) {
    auto* record = new Record{fn, user_data};
    api.retain_with_graph(graph, record, [](void* opaque) { delete static_cast<Record*>(opaque); });
    return record;
  }
  Record* kept(HostFn fn, void* user_data) {
    std::lock_guard<std::mutex> lock(mutex_);
    kept_.push_back(std::make_unique<Record>(Record{fn, user_data}));
    return kept_.back().get();
  }
  std::map<cudaGraphNode_t, cudaGraph_t> graph_of_;
  std::vector<std::unique_ptr<Record>> kept_;
};

}  // namespace

std::vector<std::unique_ptr<Forwarder>> make_fuzz_controls() {
  std::vector<std::unique_ptr<Forwarder>> layers;
  layers.push_back(std::make_unique<FreesOnUpdate>());
  layers.push_back(std::make_unique<ExecSetInGraph>());
  return layers;
}

std::vector<std::unique_ptr<Forwarder>> make_control_layers() {
  std::vector<std::unique_ptr<Forwarder>> layers;
  for (auto make : {make_fuzz_controls, make_stream_callback_controls, make_update_controls, make_capture_controls})
    for (auto& layer : make()) layers.push_back(std::move(layer));
  return layers;
}

}  // namespace hostcb
