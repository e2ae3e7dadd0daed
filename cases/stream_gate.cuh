// The gate axis: a stream held shut while host work is enqueued behind it, so a host
// function or stream callback runs only after the call that enqueued it has returned
// and the caller's stack has been overwritten. A layer that keeps a pointer to its own
// temporaries (a record on its stack, a callable passed by reference) is then caught,
// where an open stream would have run the callback before the temporaries were gone.
// libcu++'s host_launch test holds its stream with an atomic gate the same way.
#pragma once
#include <memory>

#include "cuda/cuda_handles.hpp"
#include "model/axes.hpp"

namespace hostcb::cases {

class StreamGate {
 public:
  StreamGate() = default;
  ~StreamGate();  // opens the gate: a scenario that throws never leaves the kernel spinning
  StreamGate(const StreamGate&) = delete;
  StreamGate& operator=(const StreamGate&) = delete;

  // Enqueues the kernel that spins until open() (or, as a backstop, about 20 s).
  void hold(cudaStream_t stream);
  void open();  // nothing to do for a gate never held
  bool held() const { return static_cast<bool>(flag_); }

 private:
  PinnedMemory flag_;  // made by hold(): an open gate needs no CUDA
};

// What is enqueued behind a held gate must come back at once: CUDA's enqueues never wait
// for earlier work on their stream, and a layer's that does (it synchronizes the stream
// first) would otherwise show only as the scenario's timeout. Made before the enqueues,
// finished after them: if they have not all returned within kEnqueueSeconds, it fails the
// scenario by name ("[async]") and opens the gate, so the enqueue returns and the scenario
// ends as it would. Does nothing for a gate not held.
class EnqueuesReturn {
 public:
  static constexpr double kEnqueueSeconds = 5.0;  // well before the scenario's 15 s
  EnqueuesReturn(StreamGate& gate, const char* what);
  ~EnqueuesReturn();  // the enqueues returned: the watch ends
  EnqueuesReturn(const EnqueuesReturn&) = delete;
  EnqueuesReturn& operator=(const EnqueuesReturn&) = delete;

 private:
  struct Watch;
  std::unique_ptr<Watch> watch_;
};

// Overwrites a stretch of this thread's stack below the caller with a pattern: what the
// calls before left there (a layer's temporaries) is gone.
void scrub_stack();

// Whether `p` holds its stream (gate=held); families without the axis never do.
bool gate_held(const Params& p);

}  // namespace hostcb::cases
