/*
 * The example hostcb adapter: a thin layer over the CUDA runtime, the shape of any
 * wrapper that forwards (fn, user_data) untouched. Build it as a shared library that
 * exports hostcb_adapter_v1(), then:  hostcb run --adapter ./libhostcb_example_adapter.so
 */
#include <cuda_runtime_api.h>
#include <hostcb/adapter.h>
#include <stdio.h>
#include <stdlib.h>

static int launch_host_func(void *stream, hostcb_host_fn fn, void *user_data) {
  return (int)cudaLaunchHostFunc((cudaStream_t)stream, fn, user_data);
}

static int add_host_node(void *graph, void *const *deps, size_t num_deps, hostcb_host_fn fn, void *user_data,
                         void **node_out) {
  struct cudaHostNodeParams params = {fn, user_data};
  return (int)cudaGraphAddHostNode((cudaGraphNode_t *)node_out, (cudaGraph_t)graph, (const cudaGraphNode_t *)deps,
                                   num_deps, &params);
}

/* cudaStreamAddCallback gives the callback a cudaStream_t and a cudaError_t; hostcb's
 * callback takes void* and int. A record carries the callback across; it is freed after
 * the one call a stream callback gets. */
struct callback_record {
  hostcb_stream_callback callback;
  void *user_data;
};

static void CUDART_CB forward_stream_callback(cudaStream_t stream, cudaError_t status, void *opaque) {
  struct callback_record record = *(struct callback_record *)opaque;
  free(opaque);
  record.callback((void *)stream, (int)status, record.user_data);
}

static int add_stream_callback(void *stream, hostcb_stream_callback callback, void *user_data) {
  struct callback_record *record = (struct callback_record *)malloc(sizeof *record);
  if (!record) return (int)cudaErrorMemoryAllocation;
  record->callback = callback;
  record->user_data = user_data;
  cudaError_t rc = cudaStreamAddCallback((cudaStream_t)stream, forward_stream_callback, record, 0);
  if (rc != cudaSuccess) free(record);
  return (int)rc;
}

/* Version 2: the capture and the host-node updates, each the runtime call itself. */
static int begin_capture(void *stream, int mode) {
  return (int)cudaStreamBeginCapture((cudaStream_t)stream, (enum cudaStreamCaptureMode)mode);
}
static int end_capture(void *stream, void **graph_out) {
  return (int)cudaStreamEndCapture((cudaStream_t)stream, (cudaGraph_t *)graph_out);
}
static int graph_set_host_node(void *graph, void *node, hostcb_host_fn fn, void *user_data) {
  (void)graph; /* a layer that owns records would tie the new one to the graph here */
  struct cudaHostNodeParams params = {fn, user_data};
  return (int)cudaGraphHostNodeSetParams((cudaGraphNode_t)node, &params);
}
static int exec_set_host_node(void *exec, void *node, hostcb_host_fn fn, void *user_data) {
  struct cudaHostNodeParams params = {fn, user_data};
  return (int)cudaGraphExecHostNodeSetParams((cudaGraphExec_t)exec, (cudaGraphNode_t)node, &params);
}

static const char *describe(void) { return "example adapter over the CUDA runtime (cudaLaunchHostFunc)"; }

/* The runtime this plugin was built with, as "cudart=MAJOR.MINOR". */
static const char *versions(void) {
  static char text[32];
  snprintf(text, sizeof text, "cudart=%d.%d\n", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
  return text;
}

static const struct hostcb_adapter adapter = {
    HOSTCB_ADAPTER_ABI_VERSION, sizeof(struct hostcb_adapter), "example",
    NULL,             /* init */
    NULL,             /* teardown */
    launch_host_func, add_host_node, add_stream_callback,
    NULL,             /* last_error */
    describe,
    begin_capture, end_capture, graph_set_host_node, exec_set_host_node, versions,
    HOSTCB_LAUNCH_ANYWHERE,
};

const struct hostcb_adapter *hostcb_adapter_v1(void) { return &adapter; }
