// capture_contract: a stream callback enqueued while the stream is being captured.
//
// The headers say stream callbacks are "not supported with stream capture". What CUDA
// does about it is data below (measured on driver 580.159.04, ../shared/cuda-facts.md);
// a driver that behaves differently fails here, printing expected and observed codes.
#include "cases/cases.hpp"
#include "cases/contract_checks.hpp"
#include "model/errors.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

struct CaptureContract {
  int enqueue;         // what cudaStreamAddCallback / cuStreamAddCallback return
  int status_after;    // the capture status then: 2 = invalidated
  int end_capture;     // what ending the capture returns
  bool graph_is_null;  // whether end-capture hands back no graph
};

// 900 cudaErrorStreamCaptureUnsupported / CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
// 901 cudaErrorStreamCaptureInvalidated / CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
constexpr CaptureContract kStreamCallbackDuringCapture = {900, 2, 901, true};

const char* capture_status_name(int status) {
  switch (status) {
    case 0: return "none";
    case 1: return "active";
    case 2: return "invalidated";
    default: return "unknown";
  }
}

}  // namespace

void check_stream_callback_in_capture(ScenarioRun& run, CaptureMode mode) {
  const GraphApi& api = run.api();
  const CaptureContract& want = kStreamCallbackDuringCapture;

  // The callback must never run: it was rejected.
  Probe& probe = run.make_probe(1, 0);
  Stream stream = api.make_stream();
  api.begin_capture(stream.get(), mode);
  ApiResult enqueue =
      api.try_add_stream_callback(stream.get(), Probe::status_fn(), probe.stream_callback_user_data(0, stream.get()));
  int status_after = api.capture_status(stream.get());
  Graph graph;
  ApiResult end = api.try_end_capture(stream.get(), graph);

  HOSTCB_EXPECT(enqueue.code == want.enqueue,
                str("[contract] stream callback during capture returned ", enqueue.name, " (", enqueue.code, "); expected ",
                    api.error_name(want.enqueue), " (", want.enqueue, ")"));
  HOSTCB_EXPECT(status_after == want.status_after,
                str("[contract] capture status after it was ", capture_status_name(status_after), " (", status_after,
                    "); expected ", capture_status_name(want.status_after), " (", want.status_after, ")"));
  HOSTCB_EXPECT(end.code == want.end_capture,
                str("[contract] ending the capture returned ", end.name, " (", end.code, "); expected ",
                    api.error_name(want.end_capture), " (", want.end_capture, ")"));
  HOSTCB_EXPECT((graph.get() == nullptr) == want.graph_is_null,
                str("[contract] ending the capture gave ", graph ? "a graph" : "no graph", "; expected ",
                    want.graph_is_null ? "no graph" : "a graph"));
  // Flush anything that was enqueued after all, so a wrongly accepted callback is counted.
  if (api.capture_status(stream.get()) == 0) api.synchronize(stream.get());
}

Family capture_contract_family() {
  Family family;
  family.name = "capture_contract";
  family.summary = "a stream callback during capture is rejected (900), invalidates the capture, end-capture fails (901)";
  family.axes = {
      api_axis(),
      Axis::choice("mode", {"global", "thread_local", "relaxed"}),
  };
  family.body = [](ScenarioRun& run) { check_stream_callback_in_capture(run, parse_capture_mode(run.param("mode"))); };
  return family;
}

HOSTCB_FAMILY(capture_contract_family);

}  // namespace hostcb::cases
