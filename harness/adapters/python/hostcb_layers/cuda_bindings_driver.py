"""cuda.bindings' driver API as a hostcb layer: each operation through
cuda.bindings.driver, called the way a user of the bindings calls it with a raw C
function pointer and an integer userData (see cuda_bindings_runtime.py: the same
handle conventions, CUstream(init_value=...), CUhostFn(init_value=...)). hostcb's
handles are the runtime's, which are the driver's (cudaStream_t is a CUstream)."""
from cuda.bindings import driver

from . import _environment

NAME = "cuda_bindings_driver"
_DISTRIBUTIONS = ("cuda-bindings", "cuda-python")


def _handle(value):
    """A handle from a call's result tuple as an int (the bindings give None on failure)."""
    return 0 if value is None else int(value)


def _host_node_params(fn, user_data):
    params = driver.CUDA_HOST_NODE_PARAMS()
    params.fn = driver.CUhostFn(init_value=fn)
    params.userData = user_data
    return params


def launch_host_func(stream, fn, user_data):
    err, = driver.cuLaunchHostFunc(driver.CUstream(init_value=stream), driver.CUhostFn(init_value=fn), user_data)
    return int(err)


def add_host_node(graph, deps, fn, user_data):
    nodes = [driver.CUgraphNode(init_value=d) for d in deps]
    err, node = driver.cuGraphAddHostNode(driver.CUgraph(init_value=graph), nodes, len(nodes),
                                          _host_node_params(fn, user_data))
    return int(err), _handle(node)


def add_stream_callback(stream, callback, user_data):
    err, = driver.cuStreamAddCallback(driver.CUstream(init_value=stream), driver.CUstreamCallback(init_value=callback),
                                      user_data, 0)
    return int(err)


def begin_capture(stream, mode):
    err, = driver.cuStreamBeginCapture(driver.CUstream(init_value=stream), driver.CUstreamCaptureMode(mode))
    return int(err)


def end_capture(stream):
    err, graph = driver.cuStreamEndCapture(driver.CUstream(init_value=stream))
    return int(err), _handle(graph)


def graph_set_host_node(graph, node, fn, user_data):
    err, = driver.cuGraphHostNodeSetParams(driver.CUgraphNode(init_value=node), _host_node_params(fn, user_data))
    return int(err)


def exec_set_host_node(exec_, node, fn, user_data):
    err, = driver.cuGraphExecHostNodeSetParams(driver.CUgraphExec(init_value=exec_), driver.CUgraphNode(init_value=node),
                                               _host_node_params(fn, user_data))
    return int(err)


def versions():
    return _environment.versions(*_DISTRIBUTIONS)


def describe():
    return _environment.describe("cuda.bindings.driver (cuLaunchHostFunc, cuGraphAddHostNode, ...)", *_DISTRIBUTIONS)
