/*
 * The example hostcb adapter: a thin layer over the CUDA runtime, the shape of any
 * wrapper that forwards (fn, user_data) untouched. Build it as a shared library that
 * exports hostcb_adapter_v1(), then:  hostcb run --adapter ./libhostcb_example_adapter.so
 */
#include <cuda_runtime_api.h>
#include <hostcb/adapter.h>
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

static const char *describe(void) { return "example adapter over the CUDA runtime (cudaLaunchHostFunc)"; }

static const struct hostcb_adapter adapter = {
    HOSTCB_ADAPTER_ABI_VERSION, sizeof(struct hostcb_adapter), "example",
    NULL,             /* init */
    NULL,             /* teardown */
    launch_host_func, add_host_node, add_stream_callback,
    NULL,             /* last_error */
    describe,
};

const struct hostcb_adapter *hostcb_adapter_v1(void) { return &adapter; }
