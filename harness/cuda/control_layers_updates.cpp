// Known-bad layers whose updates touch what they must not, each caught where the update
// family launches everything else that holds the node again (update/case=*_leaves_others):
//   rewrites_shared_record  an exec's host-node update rewrites, in place, the record the
//                           graph's node holds: the graph, every other exec and every
//                           later one switch with it
//   frees_shared_record     an exec's host-node update frees the record the graph's node
//                           holds: every other exec, and every later one, calls freed memory
//   updates_graph_too       an exec's host-node update sets the graph's node as well: a
//                           later exec calls the new function
//   record_per_stream       one record per stream, rewritten by each host function launched
//                           on it: a second capture on the stream (a replacement graph for
//                           cudaGraphExecUpdate) rewrites the record the first graph holds
//   updates_first_host_node  a host-node update reaches another host node of the graph than
//                           the one named (the first of the others): in the graph, among
//                           `graph`'s host nodes; in an exec, among those the layer added to
//                           that node's graph (it knows only those: build=node)
// All else is right (KeepsRecords).
#include <map>

#include "cuda/control_layer.hpp"

namespace hostcb {

namespace {

class RewritesSharedRecord final : public KeepsRecords {
 public:
  const char* name() const override { return "rewrites_shared_record"; }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    Record* shared = record_of(api, node);
    if (!shared) return KeepsRecords::exec_set_host_node(api, exec, node, fn, user_data);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      *shared = Record{fn, user_data};  // the bug: the graph and its other execs hold it too
    }
    api.exec_set_host_node(exec, node, &call_record, shared);
  }
};

class FreesSharedRecord final : public KeepsRecords {
 public:
  const char* name() const override { return "frees_shared_record"; }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    Record* shared = record_of(api, node);
    KeepsRecords::exec_set_host_node(api, exec, node, fn, user_data);
    if (shared) free_record(shared);  // the bug: the graph's node, and every other exec, still calls it
  }
};

class UpdatesGraphToo final : public KeepsRecords {
 public:
  const char* name() const override { return "updates_graph_too"; }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    Record* record = keep(fn, user_data);
    api.exec_set_host_node(exec, node, &call_record, record);
    api.set_host_node(node, &call_record, record);  // the bug: the graph is not the exec's to change
  }
};

class RecordPerStream final : public KeepsRecords {
 public:
  const char* name() const override { return "record_per_stream"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    Record* record = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      record = by_stream_[stream];
    }
    if (!record) {
      record = keep(fn, user_data);
      std::lock_guard<std::mutex> lock(mutex_);
      by_stream_[stream] = record;
    } else {
      std::lock_guard<std::mutex> lock(mutex_);
      *record = Record{fn, user_data};  // the bug: a graph captured before still holds it
    }
    api.launch_host_func(stream, &call_record, record);
  }

 private:
  std::map<cudaStream_t, Record*> by_stream_;
};

class UpdatesFirstHostNode final : public KeepsRecords {
 public:
  const char* name() const override { return "updates_first_host_node"; }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    cudaGraphNode_t node = KeepsRecords::add_host_node(api, graph, deps, fn, user_data);
    std::lock_guard<std::mutex> lock(mutex_);
    added_[graph].push_back(node);
    if (deps.empty()) added_[graph] = {node};  // a chain's first: a graph handle CUDA may have reused
    graph_of_[node] = graph;
    return node;
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t graph, cudaGraphNode_t node, HostFn fn,
                           void* user_data) override {
    KeepsRecords::graph_set_host_node(api, graph, another(api.host_nodes(graph), node), fn, user_data);
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    cudaGraphNode_t target = node;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto graph = graph_of_.find(node);
      if (graph != graph_of_.end()) target = another(added_[graph->second], node);
    }
    KeepsRecords::exec_set_host_node(api, exec, target, fn, user_data);
  }

 private:
  // The bug: the first of `nodes` that is not the one named (the named one if it is alone).
  static cudaGraphNode_t another(const std::vector<cudaGraphNode_t>& nodes, cudaGraphNode_t named) {
    for (cudaGraphNode_t node : nodes)
      if (node != named) return node;
    return named;
  }
  std::map<cudaGraph_t, std::vector<cudaGraphNode_t>> added_;  // host nodes it added, by graph; under mutex_
  std::map<cudaGraphNode_t, cudaGraph_t> graph_of_;            // under mutex_
};

}  // namespace

std::vector<std::unique_ptr<Forwarder>> make_update_controls() {
  std::vector<std::unique_ptr<Forwarder>> layers;
  layers.push_back(std::make_unique<RewritesSharedRecord>());
  layers.push_back(std::make_unique<FreesSharedRecord>());
  layers.push_back(std::make_unique<UpdatesGraphToo>());
  layers.push_back(std::make_unique<RecordPerStream>());
  layers.push_back(std::make_unique<UpdatesFirstHostNode>());
  return layers;
}

}  // namespace hostcb
