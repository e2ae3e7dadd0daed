// A CPU stand-in of CUDA's graphs, so that the families' own bodies, the built-in layers
// and the known-bad ones run where there is no GPU (tests/sim_cases.hpp).
//
// It has streams, stream capture (any mode; side streams join a capture through events
// and leave it at end-capture; another thread's potentially unsafe call is refused beside
// a global-mode capture, which that invalidates, as CUDA does), graphs of host, kernel, copy, child-graph and empty
// nodes, clones (and a node's copy in a clone), execs, host-node updates in a graph and in
// an exec, exec updates, user objects (held by the graph, its clones and every exec made
// from them; destroyed when the last goes), stream callbacks, kernel launches and copies
// on streams, and host memory for "pinned" memory. Everything runs at once on the calling
// thread: a launch runs its nodes in the order they were added (an order every edge
// respects), a stream callback is called when it is enqueued, with its stream's sticky
// error (fail_stream, fail_context).
//
// Kernels: device code cannot run here, so a kernel runs only as the CPU work that
// define_kernel gave it; launching or adding any other kernel throws std::logic_error. So
// do conditional nodes, device launch and launches into a capture: the families here
// exclude the combinations that need them.
//
// Threads: several host threads may call it at once (the fuzz family's blocks). Its own
// bookkeeping is under one lock; what a launch, an enqueue or a stream callback runs (host
// functions, kernels' CPU work, copies) runs after the lock is released, as CUDA runs them
// on threads of its own, so a host function that waits on another thread never holds it.
#pragma once
#include <functional>

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

// What a kernel does on the CPU: given its arguments as cudaLaunchKernel takes them, the
// work of one run, with their values read now (CUDA copies a launch's or a node's
// arguments when it is enqueued or added).
using CpuKernel = std::function<std::function<void()>(void** args)>;
// Declares `kernel` (its address, as cudaLaunchKernel takes it) to run as `on_cpu`.
void define_kernel(const void* kernel, CpuKernel on_cpu);

}  // namespace hostcb::sim
