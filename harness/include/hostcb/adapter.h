/*
 * hostcb adapter ABI, version 2: how hostcb runs its scenarios through someone else's
 * forwarding layer (a Python binding, a C++ wrapper, a framework's stream class)
 * without being rebuilt. Plain C; no C++ and no CUDA header needed.
 *
 * A plugin is a shared library exporting hostcb_adapter_v1(). `hostcb run --adapter
 * PATH.so` loads it (dlopen) in the supervisor and in every worker; its `name` joins
 * the `forward` axis of every family that enqueues host functions through a
 * forwarding layer, so `--filter '*forward=NAME*'` selects those scenarios.
 *
 * Calls hostcb makes, in order:
 *   init(options)      once per process, before anything else; options is the text
 *                      after '@' in `--adapter PATH@OPTIONS`, or NULL. Non-zero: refused.
 *                      hostcb reads `name`, `describe` and `versions` after init, so
 *                      init may set them from its options.
 *   the operations     launch_host_func, add_host_node, add_stream_callback,
 *                      begin_capture .. end_capture, graph_set_host_node,
 *                      exec_set_host_node: as a scenario needs them, on the thread that
 *                      runs the scenario (one at a time, several threads in the
 *                      concurrency family); never on a CUDA callback thread
 *   teardown()         once, when the process is done with the adapter
 * The functions hostcb passes (fn, callback) must be called the way the layer calls
 * its users' functions: that is what is under test. Whatever the layer keeps to make
 * that call (a record, a Python object, a copy of a callable) is the layer's to keep
 * alive for as long as CUDA may call it: hostcb may drop its own copies, destroy the
 * graph after instantiating it, clone it, instantiate it twice, or update the exec.
 *
 * Versions: a plugin sets abi_version to the version it was built for and struct_size
 * to the size of its struct. Later versions only append members; hostcb reads none
 * past struct_size, so a plugin built for version 1 (the struct up to `describe`)
 * loads and runs as before, and the operations it lacks are listed as excluded.
 * The entry point keeps its name, hostcb_adapter_v1, in every version.
 */
#ifndef HOSTCB_ADAPTER_H
#define HOSTCB_ADAPTER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HOSTCB_ADAPTER_ABI_VERSION 2

/* A host function, as cudaHostFn_t / CUhostFn. */
typedef void (*hostcb_host_fn)(void *user_data);
/* A stream callback, as cudaStreamCallback_t / CUstreamCallback (status: a CUDA error code). */
typedef void (*hostcb_stream_callback)(void *stream, int status, void *user_data);

struct hostcb_adapter {
  /* HOSTCB_ADAPTER_ABI_VERSION as the plugin was built. */
  unsigned abi_version;
  /* sizeof(struct hostcb_adapter) as the plugin was built: later versions only append
   * members, and hostcb reads none past this size. */
  unsigned struct_size;
  /* The `forward` axis value: 1 to 40 of [A-Za-z0-9_.], unique among loaded layers. */
  const char *name;

  /* Optional (NULL: nothing to do). Returns 0 on success. */
  int (*init)(const char *options);
  /* Optional. */
  void (*teardown)(void);

  /* Enqueue fn(user_data) on `stream` (a cudaStream_t, which is also a CUstream) the
   * way the layer does, captured or not. Returns 0 or a CUDA error code. Required in
   * version 1; optional from version 2 (a layer that only has stream callbacks leaves
   * it NULL), where a plugin must offer at least one operation. */
  int (*launch_host_func)(void *stream, hostcb_host_fn fn, void *user_data);

  /* Optional (NULL: the layer has no such path, and scenarios that need it are listed
   * as excluded). Add a host node calling fn(user_data) to `graph` (a cudaGraph_t /
   * CUgraph) after the `num_deps` nodes in `deps`; store the node in *node_out.
   * Returns 0 or a CUDA error code. */
  int (*add_host_node)(void *graph, void *const *deps, size_t num_deps, hostcb_host_fn fn, void *user_data,
                       void **node_out);

  /* Optional. Enqueue a stream callback in the cudaStreamAddCallback style. Returns 0
   * or a CUDA error code. The layer calls `callback` once, as CUDA calls a stream
   * callback: with `stream` (the stream it was enqueued on), the status CUDA gave
   * (success, or the sticky error of an earlier failure) and `user_data`; hostcb checks
   * all three. */
  int (*add_stream_callback)(void *stream, hostcb_stream_callback callback, void *user_data);

  /* Optional. What went wrong in this thread's last failed call, or NULL. */
  const char *(*last_error)(void);
  /* Optional. What the layer drives, with versions, for reports
   * (e.g. "cuda-bindings 13.3.1"). */
  const char *(*describe)(void);

  /* ---- version 2: the operations a layer may own beyond the enqueue. Each is
   * optional (NULL: the layer has no such path, and scenarios that need it are listed
   * as excluded, naming the missing member). Each returns 0 or a CUDA error code. */

  /* Begin a capture on `stream` with the layer's own capture API, in `mode` (0 global,
   * 1 thread-local, 2 relaxed: cudaStreamCaptureMode's and CUstreamCaptureMode's
   * numbers), and end it, storing the graph in *graph_out (a cudaGraph_t, which hostcb
   * then owns and destroys). Between the two, hostcb enqueues host functions on the
   * stream through launch_host_func. Both or neither. */
  int (*begin_capture)(void *stream, int mode);
  int (*end_capture)(void *stream, void **graph_out);

  /* Make `node`, a host node of `graph` that add_host_node or a capture through
   * launch_host_func made, call fn(user_data) from now on: cudaGraphHostNodeSetParams.
   * Execs made before keep calling what they called. */
  int (*graph_set_host_node)(void *graph, void *node, hostcb_host_fn fn, void *user_data);
  /* Make `exec`'s instance of `node` (a node of the graph `exec` was made from) call
   * fn(user_data) from its next launch: cudaGraphExecHostNodeSetParams. The graph and
   * other execs are unchanged. hostcb gives no notice when the exec is destroyed. */
  int (*exec_set_host_node)(void *exec, void *node, hostcb_host_fn fn, void *user_data);

  /* Optional. The packages the layer drives and their versions, for reports and the
   * nightly matrix: one `name=version` per line, e.g. "cuda-bindings=13.3.1\npython=3.12.3".
   * NULL or "" when unknown. */
  const char *(*versions)(void);

  /* Where launch_host_func works: HOSTCB_LAUNCH_ANYWHERE (0) on any stream, captured or
   * not; HOSTCB_LAUNCH_IN_OWN_CAPTURE (1) only between this layer's own begin_capture
   * and end_capture (a layer whose host callbacks exist only in graphs it builds, such
   * as cuda.core's graph builder); HOSTCB_LAUNCH_ON_OWN_CAPTURE_STREAM (2) as 1, and only
   * on the stream begin_capture was given, not on a side stream the capture reached
   * through an event (a layer that forks and joins with its own API, or not at all).
   * Scenarios that launch elsewhere are excluded, naming this. A plugin whose struct ends
   * before this member launches anywhere; another value is refused at load. */
  unsigned launch_scope;
};

#define HOSTCB_LAUNCH_ANYWHERE 0u
#define HOSTCB_LAUNCH_IN_OWN_CAPTURE 1u
#define HOSTCB_LAUNCH_ON_OWN_CAPTURE_STREAM 2u

#if defined(__GNUC__)
#define HOSTCB_ADAPTER_EXPORT __attribute__((visibility("default")))
#else
#define HOSTCB_ADAPTER_EXPORT
#endif

/* The one symbol a plugin exports. */
HOSTCB_ADAPTER_EXPORT const struct hostcb_adapter *hostcb_adapter_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* HOSTCB_ADAPTER_H */
