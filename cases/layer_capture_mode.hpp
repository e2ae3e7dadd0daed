// Whether a capture the layer begins took the mode it was asked for, seen the way CUDA
// shows a mode: while the layer's capture is open on this thread, another thread in the
// default capture mode makes a potentially unsafe call (GraphApi::try_unsafe_call). CUDA
// refuses it, and invalidates the capture, only while a global-mode capture is open on
// another thread; a thread-local or relaxed capture lets it through. A layer that begins
// every capture in global mode (the ignores_capture_mode control) is seen here at once,
// where threads capturing side by side see it only when their captures happen to overlap.
#pragma once
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

// `asked` is thread-local or relaxed (what other threads must be let do). Reports a
// [capture] failure and returns false when the other thread's call was refused; a CUDA
// error otherwise (the capture itself failing) goes on as an exception.
bool check_layer_capture_lets_others_through(ScenarioRun& run, cudaStream_t stream, CaptureMode asked);

}  // namespace hostcb::cases
