/*
 * FROZEN: the version-1 header as it shipped, kept to build tests/adapters/v1_adapter.c
 * exactly as a plugin built before version 2 was built. Never edit.
 *
 * hostcb adapter ABI, version 1: how hostcb runs its scenarios through someone else's
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
 *                      hostcb reads `name` after init, so init may set it from options.
 *   launch_host_func   for each host function a scenario enqueues, on the thread that
 *   add_host_node      runs the scenario; never on a CUDA callback thread
 *   add_stream_callback
 *   teardown()         once, when the process is done with the adapter
 * The functions hostcb passes (fn, callback) must be called the way the layer calls
 * its users' functions: that is what is under test.
 */
#ifndef HOSTCB_ADAPTER_H
#define HOSTCB_ADAPTER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HOSTCB_ADAPTER_ABI_VERSION 1

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

  /* Required. Enqueue fn(user_data) on `stream` (a cudaStream_t, which is also a
   * CUstream) the way the layer does. Returns 0 or a CUDA error code. */
  int (*launch_host_func)(void *stream, hostcb_host_fn fn, void *user_data);

  /* Optional (NULL: the layer has no such path, and scenarios that need it are listed
   * as excluded). Add a host node calling fn(user_data) to `graph` (a cudaGraph_t /
   * CUgraph) after the `num_deps` nodes in `deps`; store the node in *node_out.
   * Returns 0 or a CUDA error code. */
  int (*add_host_node)(void *graph, void *const *deps, size_t num_deps, hostcb_host_fn fn, void *user_data,
                       void **node_out);

  /* Optional. Enqueue a stream callback in the cudaStreamAddCallback style. Returns 0
   * or a CUDA error code. */
  int (*add_stream_callback)(void *stream, hostcb_stream_callback callback, void *user_data);

  /* Optional. What went wrong in this thread's last failed call, or NULL. */
  const char *(*last_error)(void);
  /* Optional. What the layer drives, with versions, for reports
   * (e.g. "cuda-bindings 13.3.1"). */
  const char *(*describe)(void);
};

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
