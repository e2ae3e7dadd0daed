// Known-bad layers that only compositions reveal, for the fuzz family's controls. Each is
// right for one graph built, instantiated and launched; each is wrong once updates,
// clones, several execs, destruction, its own captures or several threads are combined.
// They join no family's `forward` axis but the fuzz family's (control_only), and
// cases/fuzz/model.cpp simulates each, so the fuzz family knows which programs must
// catch them. Also here: what every known-bad layer shares (control_layer.hpp), and the
// list of them all.
//   frees_on_update    keeps one record per node it made (add_host_node), and frees a
//                      node's old record when the node is updated, in the graph or in an
//                      exec: an exec made before, or another exec, still calls it
//   exec_set_in_graph  graph_owned, except that an exec's host-node update is tied to the
//                      graph the node belongs to (as far as the layer knows it): freed when
//                      that graph is destroyed, though the exec still calls it
//   frees_at_end_capture  keeps what it enqueues in a capture it began itself (on its
//                      stream or a side stream forked from it) for that capture only, and
//                      frees it at end_capture: the graph's launches call freed records
//   racing_registry    keeps every record in one registry of slots, taking the next slot
//                      without a lock: two threads handing it records at once get one slot,
//                      and both nodes call whichever record was written last
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "cuda/control_layer.hpp"

namespace hostcb {

void call_record(void* opaque) {
  auto* record = static_cast<Record*>(opaque);
  record->fn(record->user_data);
}

void free_for_good(Record* record) { std::memset(static_cast<void*>(record), 0xa5, sizeof(Record)); }

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

class FreesAtEndCapture final : public ControlLayer {
 public:
  const char* name() const override { return "frees_at_end_capture"; }
  void begin_capture(const GraphApi& api, cudaStream_t stream, CaptureMode mode) override {
    api.begin_capture(stream, mode);
    std::lock_guard<std::mutex> lock(mutex_);
    own_[api.capturing_graph(stream)];  // its records, from here to end_capture
  }
  Graph end_capture(const GraphApi& api, cudaStream_t stream) override {
    cudaGraph_t capturing = api.capturing_graph(stream);
    Graph graph = api.end_capture(stream);
    std::lock_guard<std::mutex> lock(mutex_);
    auto own = own_.find(capturing);
    if (own != own_.end()) {
      for (Record* record : own->second) delete record;  // the bug: the graph calls them on every launch
      own_.erase(own);
    }
    return graph;
  }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    auto* record = new Record{fn, user_data};  // kept for good, unless in its own capture
    cudaGraph_t capturing = api.capturing_graph(stream);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto own = capturing ? own_.find(capturing) : own_.end();
      if (own != own_.end()) own->second.push_back(record);
    }
    api.launch_host_func(stream, &call_record, record);
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return api.add_host_node(graph, deps, &call_record, new Record{fn, user_data});
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t, cudaGraphNode_t node, HostFn fn, void* user_data) override {
    api.set_host_node(node, &call_record, new Record{fn, user_data});
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    api.exec_set_host_node(exec, node, &call_record, new Record{fn, user_data});
  }

 private:
  std::map<cudaGraph_t, std::vector<Record*>> own_;  // a capture it began -> what it enqueued there
};

// Holds the registry's window (from reading the next slot to writing it back) open, so
// that the race happens whenever two threads use the layer close together, however the
// OS schedules them: a caller on any thread but the one the layer was made on (the
// process's own, which runs every step outside a block of threads) waits there until a
// second caller enters the window, at most 20 ms. The second reads the same slot before
// either writes. One thread alone never waits, so a program without threads pays nothing.
class RaceWindow {
 public:
  void hold_open() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (waiting_) {  // a partner: the waiter has read its slot, so has this caller
      waiting_ = false;
      ++arrivals_;
      arrived_.notify_all();
      return;
    }
    if (std::this_thread::get_id() == home_) return;
    waiting_ = true;
    const std::uint64_t arrivals = arrivals_;
    arrived_.wait_for(lock, std::chrono::milliseconds(20), [&] { return arrivals_ != arrivals; });
    waiting_ = false;
  }

 private:
  const std::thread::id home_ = std::this_thread::get_id();
  std::mutex mutex_;
  std::condition_variable arrived_;
  bool waiting_ = false;
  std::uint64_t arrivals_ = 0;
};

class RacingRegistry final : public ControlLayer {
 public:
  const char* name() const override { return "racing_registry"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    api.launch_host_func(stream, &call_slot, enter(fn, user_data));
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return api.add_host_node(graph, deps, &call_slot, enter(fn, user_data));
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t, cudaGraphNode_t node, HostFn fn, void* user_data) override {
    api.set_host_node(node, &call_slot, enter(fn, user_data));
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    api.exec_set_host_node(exec, node, &call_slot, enter(fn, user_data));
  }

 private:
  // The slot CUDA carries as userData. Slots are reused after kSlots records (the oldest
  // scenarios' graphs are long gone by then; one program makes a few thousand at most).
  void* enter(HostFn fn, void* user_data) {
    auto* record = new Record{fn, user_data};
    const std::size_t slot = next_.load(std::memory_order_relaxed);
    window_.hold_open();
    next_.store((slot + 1) % kSlots, std::memory_order_relaxed);  // the bug: read, then write, with no lock
    delete slots_[slot].exchange(record, std::memory_order_acq_rel);  // a slot two callers took keeps one record
    return &slots_[slot];
  }
  static void call_slot(void* opaque) {
    Record* record = static_cast<std::atomic<Record*>*>(opaque)->load(std::memory_order_acquire);
    record->fn(record->user_data);
  }
  static constexpr std::size_t kSlots = 1u << 16;
  std::unique_ptr<std::atomic<Record*>[]> slots_{new std::atomic<Record*>[kSlots]()};
  std::atomic<std::size_t> next_{0};
  RaceWindow window_;
};

}  // namespace

std::vector<std::unique_ptr<Forwarder>> make_fuzz_controls() {
  std::vector<std::unique_ptr<Forwarder>> layers;
  layers.push_back(std::make_unique<FreesOnUpdate>());
  layers.push_back(std::make_unique<ExecSetInGraph>());
  layers.push_back(std::make_unique<FreesAtEndCapture>());
  layers.push_back(std::make_unique<RacingRegistry>());
  return layers;
}

std::vector<std::unique_ptr<Forwarder>> make_control_layers() {
  std::vector<std::unique_ptr<Forwarder>> layers;
  for (auto make : {make_fuzz_controls, make_stream_callback_controls, make_update_controls, make_capture_controls,
                    make_lifetime_controls})
    for (auto& layer : make()) layers.push_back(std::move(layer));
  return layers;
}

}  // namespace hostcb
