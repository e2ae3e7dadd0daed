// What the known-bad layers share (control_layers*.cpp). Each is right but for the one
// operation it overrides, and joins only the `forward` axes of the families whose checks
// it is there to prove (cases/layer_rules.hpp, add_known_bad).
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "cuda/forwarding.hpp"

namespace hostcb {

// A (fn, userData) pair a layer keeps between the enqueue and the call.
struct Record {
  HostFn fn;
  void* user_data;
};
void call_record(void* record);  // the trampoline: record->fn(record->user_data)
// Frees `record` as far as its callers can tell: fills it with the byte glibc's perturbed
// free writes (0xa5) and never hands the memory out again, so that calling it faults at
// once, whatever an allocator would have put there since (a real free is reused by luck,
// and the call then lands in a live record: a control that passes on one libc only).
void free_for_good(Record* record);

// A known-bad layer's base: captures and stream callbacks go straight to CUDA.
class ControlLayer : public Forwarder {
 public:
  bool control_only() const override { return true; }
  void begin_capture(const GraphApi& api, cudaStream_t stream, CaptureMode mode) override {
    api.begin_capture(stream, mode);
  }
  Graph end_capture(const GraphApi& api, cudaStream_t stream) override { return api.end_capture(stream); }
  void add_stream_callback(const GraphApi& api, cudaStream_t stream, StatusFn fn, void* user_data) override {
    api.add_stream_callback(stream, fn, user_data);
  }

 protected:
  std::mutex mutex_;
};

// A layer whose every host function goes through a record it keeps as long as the layer
// lives: right everywhere (if wasteful), so that only an operation a subclass overrides
// can be wrong.
class KeepsRecords : public ControlLayer {
 public:
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    api.launch_host_func(stream, &call_record, keep(fn, user_data));
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return api.add_host_node(graph, deps, &call_record, keep(fn, user_data));
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t, cudaGraphNode_t node, HostFn fn, void* user_data) override {
    api.set_host_node(node, &call_record, keep(fn, user_data));
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    api.exec_set_host_node(exec, node, &call_record, keep(fn, user_data));
  }

 protected:
  // Where a record is kept: for the layer's life here; a subclass may keep it elsewhere.
  virtual Record* keep(HostFn fn, void* user_data);
  void free_record(Record* record);  // one keep made: the bug some subclasses have
  // The record of this layer's that `node` holds in its graph, or nullptr.
  static Record* record_of(const GraphApi& api, cudaGraphNode_t node);

 private:
  std::vector<std::unique_ptr<Record>> kept_;  // under mutex_
};

// The known-bad layers by bug class, in the order the axes list them.
std::vector<std::unique_ptr<Forwarder>> make_fuzz_controls();            // control_layers.cpp
std::vector<std::unique_ptr<Forwarder>> make_stream_callback_controls();  // control_layers_callbacks.cpp
std::vector<std::unique_ptr<Forwarder>> make_update_controls();           // control_layers_updates.cpp
std::vector<std::unique_ptr<Forwarder>> make_capture_controls();          // control_layers_captures.cpp
std::vector<std::unique_ptr<Forwarder>> make_lifetime_controls();         // control_layers_lifetime.cpp

}  // namespace hostcb
