// A CPU stand-in of CUDA's graphs, so that the families' own bodies, the built-in layers
// and the known-bad ones run where there is no GPU (tests/sim_cases.hpp).
//
// It has streams, stream capture (any mode; side streams join a capture through events
// and leave it at end-capture), graphs of host, child-graph and empty nodes, clones,
// execs, host-node updates in a graph and in an exec, exec updates, user objects (held by
// the graph, its clones and every exec made from them; destroyed when the last goes) and
// stream callbacks. Everything runs at once on the calling thread: a launch calls its
// host nodes in the order they were added (an order every edge respects), a stream
// callback is called when it is enqueued, with its stream's sticky error (fail_stream,
// fail_context).
// No kernels, copies, conditional nodes or devices: a body that needs them throws
// std::logic_error, and the families here exclude the combinations that do. One thread
// at a time.
#pragma once
#include "cuda/graph_api.hpp"

namespace hostcb::sim {

const GraphApi& api();

// From now on stream callbacks enqueued on `stream` receive `code`, and synchronizing it
// returns it (a sticky error, as an earlier fault leaves one).
void fail_stream(cudaStream_t stream, int code);

// From now on the whole context holds `code`, as a device fault leaves it: every stream
// has it, no stream can be made, and context_problem() says so. It lasts as long as the
// process, as CUDA's does (a worker that saw it must retire).
void fail_context(int code);

}  // namespace hostcb::sim
