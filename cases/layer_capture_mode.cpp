#include "cases/layer_capture_mode.hpp"

#include <exception>
#include <stdexcept>
#include <thread>

#include "model/errors.hpp"

namespace hostcb::cases {

namespace {

const char* mode_name(CaptureMode mode) {
  switch (mode) {
    case CaptureMode::global: return "global";
    case CaptureMode::thread_local_: return "thread-local";
    case CaptureMode::relaxed: return "relaxed";
  }
  return "?";
}

}  // namespace

bool check_layer_capture_lets_others_through(ScenarioRun& run, cudaStream_t stream, CaptureMode asked) {
  if (asked == CaptureMode::global) throw std::logic_error("a global-mode capture lets no other thread through");
  const GraphApi& api = run.api();
  Forwarder& layer = run.forward();
  ApiResult other;
  std::exception_ptr other_error;
  layer.begin_capture(api, stream, asked);
  try {
    std::thread([&] {
      try {
        api.use_device(run.device());  // a new thread starts on device 0
        other = api.try_unsafe_call();
      } catch (...) {
        other_error = std::current_exception();
      }
    }).join();
  } catch (...) {  // the thread could not start: the capture must not stay open
    Graph discarded;
    api.try_end_capture(stream, discarded);
    throw;
  }
  if (other_error || other.code == 0) {
    Graph graph = layer.end_capture(api, stream);  // empty, and discarded
    if (other_error) std::rethrow_exception(other_error);
    return true;
  }
  // Refused: CUDA invalidated the capture, so the layer's end_capture fails, by this
  // failure's doing; the stream must not stay capturing whatever the layer does about it.
  try {
    layer.end_capture(api, stream);
  } catch (...) {
  }
  if (api.capture_status(stream) != 0) {
    Graph discarded;
    api.try_end_capture(stream, discarded);
  }
  HOSTCB_EXPECT(other.code == 0,
                str("[capture] while the layer's capture, asked for in ", mode_name(asked),
                    " mode, was open on one thread, another thread's ", other.call, " returned ", other.name, " (",
                    other.code, "): CUDA refuses that only while a global-mode capture is open elsewhere, so the "
                    "layer began its capture in global mode"));
  return false;
}

}  // namespace hostcb::cases
