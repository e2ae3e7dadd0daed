// Known-bad layers whose stream callbacks hand the user's callback a wrong argument, each
// caught by the probe's check of that argument (callback/probe.hpp):
//   hands_other_stream     another stream than the one it was enqueued on   [stream]
//   drops_status           success, whatever CUDA said (a fault's status lost) [status]
//   hands_other_user_data  a userData one past the user's                    [userdata]
// Their host functions are right (KeepsRecords). And one whose enqueues block:
//   waits_for_stream       synchronizes the stream before each enqueue outside a capture
//                          (host functions and stream callbacks): right in what it calls,
//                          but the caller waits for earlier work                [async]
#include "cuda/control_layer.hpp"

namespace hostcb {

namespace {

enum class Mishandling { other_stream, success, other_user_data };

struct CallbackRecord {
  StatusFn fn;
  void* user_data;
  Mishandling mishandling;
};

int g_other_stream;  // its address is the stream hands_other_stream hands on

// A stream callback is called once: the record is freed after its call (right for any layer).
void mishand(void* stream, int status, void* opaque) {
  CallbackRecord record = *static_cast<CallbackRecord*>(opaque);
  delete static_cast<CallbackRecord*>(opaque);
  switch (record.mishandling) {
    case Mishandling::other_stream: return record.fn(&g_other_stream, status, record.user_data);
    case Mishandling::success: return record.fn(stream, 0, record.user_data);
    case Mishandling::other_user_data: return record.fn(stream, status, static_cast<char*>(record.user_data) + 1);
  }
}

class MishandlesStreamCallbacks final : public KeepsRecords {
 public:
  MishandlesStreamCallbacks(const char* name, Mishandling mishandling) : name_(name), mishandling_(mishandling) {}
  const char* name() const override { return name_; }
  void add_stream_callback(const GraphApi& api, cudaStream_t stream, StatusFn fn, void* user_data) override {
    auto* record = new CallbackRecord{fn, user_data, mishandling_};
    try {
      api.add_stream_callback(stream, &mishand, record);
    } catch (...) {
      delete record;  // never enqueued
      throw;
    }
  }

 private:
  const char* name_;
  Mishandling mishandling_;
};

class WaitsForStream final : public KeepsRecords {
 public:
  const char* name() const override { return "waits_for_stream"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    if (!api.capturing_graph(stream)) api.synchronize(stream);  // the bug
    KeepsRecords::launch_host_func(api, stream, fn, user_data);
  }
  void add_stream_callback(const GraphApi& api, cudaStream_t stream, StatusFn fn, void* user_data) override {
    if (!api.capturing_graph(stream)) api.synchronize(stream);  // the bug
    KeepsRecords::add_stream_callback(api, stream, fn, user_data);
  }
};

}  // namespace

std::vector<std::unique_ptr<Forwarder>> make_stream_callback_controls() {
  std::vector<std::unique_ptr<Forwarder>> layers;
  layers.push_back(std::make_unique<MishandlesStreamCallbacks>("hands_other_stream", Mishandling::other_stream));
  layers.push_back(std::make_unique<MishandlesStreamCallbacks>("drops_status", Mishandling::success));
  layers.push_back(std::make_unique<MishandlesStreamCallbacks>("hands_other_user_data", Mishandling::other_user_data));
  layers.push_back(std::make_unique<WaitsForStream>());
  return layers;
}

}  // namespace hostcb
