/* The shipped bug as a plugin of the adapter ABI, for tests/e2e_repro.sh: every host
 * function reaches CUDA through a trampoline whose (fn, userData) record is spent after
 * its first call, as the built-in `oneshot` layer's is. Spent, not freed: a later call
 * finds it empty and calls nothing, so that the reproducer fails the same way every run
 * (freed memory could call anything). Stream callbacks, called once, are passed through. */
#include <cuda_runtime_api.h>
#include <hostcb/adapter.h>
#include <stdlib.h>

struct record {
  hostcb_host_fn fn;
  void *user_data;
};

static void call_once(void *opaque) {
  struct record *r = opaque;
  hostcb_host_fn fn = r->fn;
  r->fn = NULL; /* the bug: spent after the first call */
  if (fn) fn(r->user_data);
}
static struct record *record_of(hostcb_host_fn fn, void *user_data) {
  struct record *r = malloc(sizeof *r);
  r->fn = fn;
  r->user_data = user_data;
  return r;
}
static struct cudaHostNodeParams params_of(hostcb_host_fn fn, void *user_data) {
  struct cudaHostNodeParams p = {call_once, record_of(fn, user_data)};
  return p;
}

static int launch_host_func(void *stream, hostcb_host_fn fn, void *user_data) {
  return cudaLaunchHostFunc(stream, call_once, record_of(fn, user_data));
}
static int add_host_node(void *graph, void *const *deps, size_t num_deps, hostcb_host_fn fn, void *user_data,
                         void **node_out) {
  struct cudaHostNodeParams p = params_of(fn, user_data);
  return cudaGraphAddHostNode((cudaGraphNode_t *)node_out, graph, (const cudaGraphNode_t *)deps, num_deps, &p);
}
static int add_stream_callback(void *stream, hostcb_stream_callback callback, void *user_data) {
  return cudaStreamAddCallback(stream, (cudaStreamCallback_t)callback, user_data, 0);
}
static int begin_capture(void *stream, int mode) { return cudaStreamBeginCapture(stream, (enum cudaStreamCaptureMode)mode); }
static int end_capture(void *stream, void **graph_out) { return cudaStreamEndCapture(stream, (cudaGraph_t *)graph_out); }
static int graph_set_host_node(void *graph, void *node, hostcb_host_fn fn, void *user_data) {
  (void)graph;
  struct cudaHostNodeParams p = params_of(fn, user_data);
  return cudaGraphHostNodeSetParams(node, &p);
}
static int exec_set_host_node(void *exec, void *node, hostcb_host_fn fn, void *user_data) {
  struct cudaHostNodeParams p = params_of(fn, user_data);
  return cudaGraphExecHostNodeSetParams(exec, node, &p);
}

static const struct hostcb_adapter adapter = {
    .abi_version = HOSTCB_ADAPTER_ABI_VERSION,
    .struct_size = sizeof(struct hostcb_adapter),
    .name = "oneshot_plugin",
    .launch_host_func = launch_host_func,
    .add_host_node = add_host_node,
    .add_stream_callback = add_stream_callback,
    .begin_capture = begin_capture,
    .end_capture = end_capture,
    .graph_set_host_node = graph_set_host_node,
    .exec_set_host_node = exec_set_host_node,
};

HOSTCB_ADAPTER_EXPORT const struct hostcb_adapter *hostcb_adapter_v1(void) { return &adapter; }
