/* A CPU stand-in of the CUDA runtime calls that hostcb repro's C++ programs make
 * (tests/e2e_repro.sh links them against it): streams, captures, graphs of host nodes,
 * execs and their host-node updates, stream callbacks. Everything runs at once on the
 * calling thread: an uncaptured enqueue calls its function, a launch calls its exec's
 * nodes in the order they were added. Prototypes from the toolkit's cuda_runtime_api.h. */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxNodes = 64 };

struct CUgraphNode_st {
  cudaHostFn_t fn;
  void *user_data;
};
struct CUgraph_st {
  size_t count;
  struct CUgraphNode_st *nodes[kMaxNodes];
};
struct CUstream_st {
  struct CUgraph_st *capturing;
};
struct CUgraphExec_st {
  size_t count;
  struct CUgraphNode_st *nodes[kMaxNodes]; /* which graph node each step was made from */
  struct CUgraphNode_st steps[kMaxNodes];  /* what it calls: the node's params when instantiated */
};

const char *cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
    default: return "cudaErrorUnknown";
  }
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) {
  *stream = calloc(1, sizeof **stream);
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  free(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) { return stream ? cudaSuccess : cudaErrorInvalidValue; }

cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags) {
  (void)flags;
  *graph = calloc(1, sizeof **graph);
  return cudaSuccess;
}
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  if (stream->capturing || (unsigned)mode > 2) return cudaErrorInvalidValue;
  return cudaGraphCreate(&stream->capturing, 0);
}
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph) {
  if (!stream->capturing) return cudaErrorInvalidValue;
  *graph = stream->capturing;
  stream->capturing = NULL;
  return cudaSuccess;
}

static cudaError_t add_node(cudaGraph_t graph, cudaHostFn_t fn, void *user_data, cudaGraphNode_t *out) {
  if (!graph || graph->count == kMaxNodes) return cudaErrorInvalidValue;
  cudaGraphNode_t node = calloc(1, sizeof *node);
  node->fn = fn;
  node->user_data = user_data;
  graph->nodes[graph->count++] = node;
  if (out) *out = node;
  return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data) {
  if (stream->capturing) return add_node(stream->capturing, fn, user_data, NULL);
  fn(user_data);
  return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *user_data,
                                  unsigned int flags) {
  if (flags != 0) return cudaErrorInvalidValue;
  if (stream->capturing) return cudaErrorStreamCaptureUnsupported;
  callback(stream, cudaSuccess, user_data);
  return cudaSuccess;
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                 size_t num_deps, const struct cudaHostNodeParams *params) {
  (void)deps;
  (void)num_deps; /* nodes run in the order they were added, which every edge respects */
  return add_node(graph, params->fn, params->userData, node);
}
cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t original) {
  cudaGraphCreate(clone, 0);
  for (size_t k = 0; k < original->count; ++k) add_node(*clone, original->nodes[k]->fn, original->nodes[k]->user_data, NULL);
  return cudaSuccess;
}
/* The child's nodes copied into the graph, in their order: a launch runs them in place. */
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                       size_t num_deps, cudaGraph_t child) {
  (void)deps;
  (void)num_deps;
  *node = NULL;
  for (size_t k = 0; k < child->count; ++k) {
    cudaGraphNode_t added;
    cudaError_t err = add_node(graph, child->nodes[k]->fn, child->nodes[k]->user_data, &added);
    if (err != cudaSuccess) return err;
    if (!*node) *node = added;
  }
  return cudaSuccess;
}
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *count) {
  if (nodes)
    for (size_t k = 0; k < graph->count && k < *count; ++k) nodes[k] = graph->nodes[k];
  *count = graph->count;
  return cudaSuccess;
}
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *type) {
  (void)node;
  *type = cudaGraphNodeTypeHost;
  return cudaSuccess;
}
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *params) {
  node->fn = params->fn;
  node->user_data = params->userData;
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags) {
  (void)flags;
  *exec = calloc(1, sizeof **exec);
  (*exec)->count = graph->count;
  for (size_t k = 0; k < graph->count; ++k) {
    (*exec)->nodes[k] = graph->nodes[k];
    (*exec)->steps[k] = *graph->nodes[k];
  }
  return cudaSuccess;
}
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *params) {
  for (size_t k = 0; k < exec->count; ++k)
    if (exec->nodes[k] == node) {
      exec->steps[k].fn = params->fn;
      exec->steps[k].user_data = params->userData;
      return cudaSuccess;
    }
  return cudaErrorInvalidValue;
}
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream) { return exec && stream ? cudaSuccess : cudaErrorInvalidValue; }
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  if (stream->capturing) return cudaErrorInvalidValue;
  for (size_t k = 0; k < exec->count; ++k) exec->steps[k].fn(exec->steps[k].user_data);
  return cudaSuccess;
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  free(exec);
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  for (size_t k = 0; k < graph->count; ++k) free(graph->nodes[k]);
  free(graph);
  return cudaSuccess;
}
