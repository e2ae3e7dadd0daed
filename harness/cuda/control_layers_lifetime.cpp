// Known-bad layers whose records live as long as something other than what calls them:
//   first_graph_owns    keeps one record per (fn, userData), owned by the first graph it is
//                       built into (freed with that graph's last exec); later graphs reuse it
//                       and own nothing: once the first graph goes, they call freed memory
//                       (lifetime's many_graphs)
//   records_per_thread  keeps each record with the thread that enqueued or added it, freed
//                       when that thread exits: a graph built on a thread that has been
//                       joined calls freed memory (lifetime's thread_gone)
// All else is right (KeepsRecords).
#include <map>

#include "cuda/control_layer.hpp"

namespace hostcb {

namespace {

class FirstGraphOwns final : public KeepsRecords {
 public:
  const char* name() const override { return "first_graph_owns"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    cudaGraph_t graph = api.capturing_graph(stream);
    if (!graph) return KeepsRecords::launch_host_func(api, stream, fn, user_data);
    api.launch_host_func(stream, &call_record, shared(api, graph, fn, user_data));
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return api.add_host_node(graph, deps, &call_record, shared(api, graph, fn, user_data));
  }

 private:
  struct Owned {
    FirstGraphOwns* layer;
    Record record;
  };
  Record* shared(const GraphApi& api, cudaGraph_t graph, HostFn fn, void* user_data) {
    auto* owned = new Owned{this, Record{fn, user_data}};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto found = cache_.find({fn, user_data});
      if (found != cache_.end()) {
        delete owned;
        return &found->second->record;  // the bug: this graph does not own it
      }
      cache_[{fn, user_data}] = owned;
    }
    // Unlocked: a retain CUDA refuses runs the destructor at once, which locks.
    api.retain_with_graph(graph, owned, [](void* opaque) {
      auto* gone = static_cast<Owned*>(opaque);
      {
        std::lock_guard<std::mutex> lock(gone->layer->mutex_);
        gone->layer->cache_.erase({gone->record.fn, gone->record.user_data});
      }
      free_for_good(&gone->record);  // and the rest of it leaks: no later allocation may land there
    });
    return &owned->record;
  }
  std::map<std::pair<HostFn, void*>, Owned*> cache_;  // under mutex_
};

class RecordsPerThread final : public KeepsRecords {
 public:
  const char* name() const override { return "records_per_thread"; }

 protected:
  Record* keep(HostFn fn, void* user_data) override {
    thread_local ThreadsRecords mine;
    mine.records.push_back(new Record{fn, user_data});
    return mine.records.back();
  }

 private:
  // The records a thread made, freed when it exits (the bug).
  struct ThreadsRecords {
    std::vector<Record*> records;
    ~ThreadsRecords() {
      for (Record* record : records) free_for_good(record);
    }
  };
};

}  // namespace

std::vector<std::unique_ptr<Forwarder>> make_lifetime_controls() {
  std::vector<std::unique_ptr<Forwarder>> layers;
  layers.push_back(std::make_unique<FirstGraphOwns>());
  layers.push_back(std::make_unique<RecordsPerThread>());
  return layers;
}

}  // namespace hostcb
