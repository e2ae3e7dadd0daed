// Known-bad layers that go wrong in their own capture (build=capture_by_layer):
//   frees_capture_at_end  frees at end_capture the records it made during its capture: the
//                         graph's first launch calls freed memory, in every family that
//                         captures
//   forgets_side_streams  while its own capture is open, takes any stream but the one that
//                         began it for a plain stream, and frees a host function's record
//                         after its first call: a side stream the capture reached through an
//                         event (topology/shape=branches) breaks on the graph's second launch
//   ignores_capture_mode  begins every capture of its own in global mode, whatever mode it is
//                         asked for: threads that capture at once through it (concurrency's
//                         thread-local captures) break each other's captures
// All else is right (KeepsRecords).
#include <map>
#include <set>

#include "cuda/control_layer.hpp"

namespace hostcb {

namespace {

class FreesCaptureAtEnd final : public KeepsRecords {
 public:
  const char* name() const override { return "frees_capture_at_end"; }
  void begin_capture(const GraphApi& api, cudaStream_t stream, CaptureMode mode) override {
    api.begin_capture(stream, mode);
    cudaGraph_t graph = api.capturing_graph(stream);
    std::lock_guard<std::mutex> lock(mutex_);
    recorded_[graph].clear();
  }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    Record* record = keep(fn, user_data);
    if (cudaGraph_t graph = api.capturing_graph(stream)) {
      std::lock_guard<std::mutex> lock(mutex_);
      auto own = recorded_.find(graph);
      if (own != recorded_.end()) own->second.push_back(record);
    }
    api.launch_host_func(stream, &call_record, record);
  }
  Graph end_capture(const GraphApi& api, cudaStream_t stream) override {
    cudaGraph_t capturing = api.capturing_graph(stream);
    Graph graph = api.end_capture(stream);
    std::vector<Record*> recorded;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      recorded = std::move(recorded_[capturing]);
      recorded_.erase(capturing);
    }
    for (Record* record : recorded) free_record(record);  // the bug: the graph calls them on every launch
    return graph;
  }

 private:
  std::map<cudaGraph_t, std::vector<Record*>> recorded_;  // by the graph its capture builds
};

void call_and_free(void* opaque) {
  call_record(opaque);
  delete static_cast<Record*>(opaque);
}

class ForgetsSideStreams final : public KeepsRecords {
 public:
  const char* name() const override { return "forgets_side_streams"; }
  void begin_capture(const GraphApi& api, cudaStream_t stream, CaptureMode mode) override {
    api.begin_capture(stream, mode);
    std::lock_guard<std::mutex> lock(mutex_);
    capturing_.insert(stream);
  }
  Graph end_capture(const GraphApi& api, cudaStream_t stream) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      capturing_.erase(stream);
    }
    return api.end_capture(stream);
  }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    bool own_capture_open = false, began_it = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      own_capture_open = !capturing_.empty();
      began_it = capturing_.count(stream) > 0;
    }
    // The bug: with its own capture open it asks only itself whether a stream is captured.
    const bool captured = own_capture_open ? began_it : api.capturing_graph(stream) != nullptr;
    if (captured) return KeepsRecords::launch_host_func(api, stream, fn, user_data);
    auto* record = new Record{fn, user_data};  // plain stream work: called once, then freed
    try {
      api.launch_host_func(stream, &call_and_free, record);
    } catch (...) {
      delete record;
      throw;
    }
  }

 private:
  std::set<cudaStream_t> capturing_;  // the streams its own captures began on
};

class IgnoresCaptureMode final : public KeepsRecords {
 public:
  const char* name() const override { return "ignores_capture_mode"; }
  void begin_capture(const GraphApi& api, cudaStream_t stream, CaptureMode) override {
    api.begin_capture(stream, CaptureMode::global);  // the bug: the mode asked for is dropped
  }
};

}  // namespace

std::vector<std::unique_ptr<Forwarder>> make_capture_controls() {
  std::vector<std::unique_ptr<Forwarder>> layers;
  layers.push_back(std::make_unique<FreesCaptureAtEnd>());
  layers.push_back(std::make_unique<ForgetsSideStreams>());
  layers.push_back(std::make_unique<IgnoresCaptureMode>());
  return layers;
}

}  // namespace hostcb
