"""cuda.bindings' runtime API as a hostcb layer: each operation through
cuda.bindings.runtime, called the way a user of the bindings calls it with a raw C
function pointer and an integer userData.

The handle types take a raw value with init_value= (cudaStream_t(init_value=handle),
cudaHostFn_t(init_value=fn)); `_ptr=` would instead be the address of memory holding the
value. cudaHostNodeParams.fn stores the pointer itself in the C struct; the launch and
stream-callback paths wrap it in the bindings' own trampoline. Nothing here is kept after
a call returns: what CUDA calls later is the bindings' to keep alive."""
from cuda.bindings import runtime

from . import _environment

NAME = "cuda_bindings_runtime"
_DISTRIBUTIONS = ("cuda-bindings", "cuda-python")


def _handle(value):
    """A handle from a call's result tuple as an int (the bindings give None on failure)."""
    return 0 if value is None else int(value)


def _host_node_params(fn, user_data):
    params = runtime.cudaHostNodeParams()
    params.fn = runtime.cudaHostFn_t(init_value=fn)
    params.userData = user_data
    return params


def launch_host_func(stream, fn, user_data):
    err, = runtime.cudaLaunchHostFunc(runtime.cudaStream_t(init_value=stream), runtime.cudaHostFn_t(init_value=fn),
                                      user_data)
    return int(err)


def add_host_node(graph, deps, fn, user_data):
    nodes = [runtime.cudaGraphNode_t(init_value=d) for d in deps]
    err, node = runtime.cudaGraphAddHostNode(runtime.cudaGraph_t(init_value=graph), nodes, len(nodes),
                                             _host_node_params(fn, user_data))
    return int(err), _handle(node)


def add_stream_callback(stream, callback, user_data):
    err, = runtime.cudaStreamAddCallback(runtime.cudaStream_t(init_value=stream),
                                         runtime.cudaStreamCallback_t(init_value=callback), user_data, 0)
    return int(err)


def begin_capture(stream, mode):
    err, = runtime.cudaStreamBeginCapture(runtime.cudaStream_t(init_value=stream), runtime.cudaStreamCaptureMode(mode))
    return int(err)


def end_capture(stream):
    err, graph = runtime.cudaStreamEndCapture(runtime.cudaStream_t(init_value=stream))
    return int(err), _handle(graph)


def graph_set_host_node(graph, node, fn, user_data):
    err, = runtime.cudaGraphHostNodeSetParams(runtime.cudaGraphNode_t(init_value=node), _host_node_params(fn, user_data))
    return int(err)


def exec_set_host_node(exec_, node, fn, user_data):
    err, = runtime.cudaGraphExecHostNodeSetParams(runtime.cudaGraphExec_t(init_value=exec_),
                                                  runtime.cudaGraphNode_t(init_value=node),
                                                  _host_node_params(fn, user_data))
    return int(err)


def versions():
    return _environment.versions(*_DISTRIBUTIONS)


def describe():
    return _environment.describe("cuda.bindings.runtime (cudaLaunchHostFunc, cudaGraphAddHostNode, ...)",
                                 *_DISTRIBUTIONS)
