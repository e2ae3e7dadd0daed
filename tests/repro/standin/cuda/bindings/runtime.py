"""A CPU stand-in of cuda.bindings.runtime, for the reproducers hostcb repro writes
(tests/e2e_repro.sh): streams, captures, graphs of host nodes, execs and their updates, and
stream callbacks, everything run at once on the calling thread. Only what the reproducers
and hostcb_layers/cuda_bindings_runtime.py call.

HOSTCB_STANDIN_BUG=frees_after_first_call makes it the bindings before 13.5.0
(cuda-python #790): cudaLaunchHostFunc wraps (fn, userData) in a trampoline record that is
dropped after its first call, so a captured graph's second launch calls nothing. Host
nodes added with cudaGraphAddHostNode hold fn itself, as the bindings' do."""
import ctypes
import enum
import itertools
import os

_BUGGY = os.environ.get("HOSTCB_STANDIN_BUG") == "frees_after_first_call"
_HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_STREAM_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
_handles = itertools.count(0x1000, 0x10)


class cudaError_t(enum.IntEnum):
    cudaSuccess = 0
    cudaErrorInvalidValue = 1
    cudaErrorStreamCaptureUnsupported = 900
    cudaErrorStreamCaptureImplicit = 906


class cudaStreamCaptureMode(enum.IntEnum):
    cudaStreamCaptureModeGlobal = 0
    cudaStreamCaptureModeThreadLocal = 1
    cudaStreamCaptureModeRelaxed = 2


class cudaGraphNodeType(enum.IntEnum):
    cudaGraphNodeTypeKernel = 0
    cudaGraphNodeTypeHost = 3


class _Handle:
    def __init__(self, init_value=0):
        self._value = int(init_value or 0)

    def __int__(self):
        return self._value

    def __index__(self):
        return self._value


class cudaStream_t(_Handle): pass
class cudaGraph_t(_Handle): pass
class cudaGraphNode_t(_Handle): pass
class cudaGraphExec_t(_Handle): pass
class cudaHostFn_t(_Handle): pass
class cudaStreamCallback_t(_Handle): pass


class cudaHostNodeParams:
    def __init__(self):
        self.fn = cudaHostFn_t(0)
        self.userData = 0


_capturing = {}   # stream -> graph being captured
_graphs = {}      # graph -> [node, ...]
_nodes = {}       # node -> [call]: what the node calls, a one-item list so updates reach it
_execs = {}       # exec -> [(node, call)]


def _direct(fn, user_data):
    function = _HOST_FN(int(fn))
    return lambda: function(user_data)


def _trampoline(fn, user_data):
    record = {"call": _direct(fn, user_data)}

    def call():
        if "call" in record:
            record["call"]()
            if _BUGGY:
                del record["call"]  # freed: a later call finds nothing
    return call


def _new(kind):
    return next(_handles)


def cudaStreamCreate():
    return cudaError_t.cudaSuccess, cudaStream_t(_new("stream"))


def cudaStreamDestroy(stream):
    return (cudaError_t.cudaSuccess,)


def cudaStreamSynchronize(stream):
    return (cudaError_t.cudaSuccess,)


def cudaStreamBeginCapture(stream, mode):
    if int(stream) in _capturing or int(mode) not in (0, 1, 2):
        return (cudaError_t.cudaErrorInvalidValue,)
    graph = _new("graph")
    _graphs[graph] = []
    _capturing[int(stream)] = graph
    return (cudaError_t.cudaSuccess,)


def cudaStreamEndCapture(stream):
    graph = _capturing.pop(int(stream), None)
    if graph is None:
        return cudaError_t.cudaErrorInvalidValue, None
    return cudaError_t.cudaSuccess, cudaGraph_t(graph)


def _add_node(graph, call):
    node = _new("node")
    _nodes[node] = [call]
    _graphs[graph].append(node)
    return node


def cudaLaunchHostFunc(stream, fn, userData):
    call = _trampoline(fn, userData)
    if int(stream) in _capturing:
        _add_node(_capturing[int(stream)], call)
    else:
        call()
    return (cudaError_t.cudaSuccess,)


def cudaStreamAddCallback(stream, callback, userData, flags):
    if int(stream) in _capturing:
        return (cudaError_t.cudaErrorStreamCaptureUnsupported,)
    _STREAM_CALLBACK(int(callback))(int(stream), 0, userData)
    return (cudaError_t.cudaSuccess,)


def cudaGraphCreate(flags):
    graph = _new("graph")
    _graphs[graph] = []
    return cudaError_t.cudaSuccess, cudaGraph_t(graph)


def cudaGraphAddHostNode(graph, pDependencies, numDependencies, nodeParams):
    if int(graph) not in _graphs:
        return cudaError_t.cudaErrorInvalidValue, None
    return cudaError_t.cudaSuccess, cudaGraphNode_t(_add_node(int(graph), _direct(nodeParams.fn, nodeParams.userData)))


def cudaGraphClone(originalGraph):
    """A copy whose nodes call what the original's call (the same trampoline records)."""
    clone = _new("graph")
    _graphs[clone] = []
    for node in _graphs[int(originalGraph)]:
        _add_node(clone, _nodes[node][0])
    return cudaError_t.cudaSuccess, cudaGraph_t(clone)


def cudaGraphAddChildGraphNode(graph, pDependencies, numDependencies, childGraph):
    """The child's nodes copied into the graph, in their order (a launch runs them in place)."""
    first = None
    for node in _graphs[int(childGraph)]:
        added = _add_node(int(graph), _nodes[node][0])
        first = first or added
    return cudaError_t.cudaSuccess, cudaGraphNode_t(first or 0)


def cudaGraphGetNodes(graph, numNodes=0):
    """As the bindings': numNodes 0 gives the count only (no list)."""
    nodes = [cudaGraphNode_t(n) for n in _graphs[int(graph)]]
    return cudaError_t.cudaSuccess, (nodes[:numNodes] if numNodes else None), len(nodes)


def cudaGraphNodeGetType(node):
    return cudaError_t.cudaSuccess, cudaGraphNodeType.cudaGraphNodeTypeHost


def cudaGraphHostNodeSetParams(node, nodeParams):
    _nodes[int(node)][0] = _direct(nodeParams.fn, nodeParams.userData)
    return (cudaError_t.cudaSuccess,)


def cudaGraphInstantiate(graph, flags):
    exec_ = _new("exec")
    _execs[exec_] = [(node, _nodes[node][0]) for node in _graphs[int(graph)]]
    return cudaError_t.cudaSuccess, cudaGraphExec_t(exec_)


def cudaGraphExecHostNodeSetParams(hGraphExec, node, pNodeParams):
    steps = _execs[int(hGraphExec)]
    for k, (held, _) in enumerate(steps):
        if held == int(node):
            steps[k] = (held, _direct(pNodeParams.fn, pNodeParams.userData))
            return (cudaError_t.cudaSuccess,)
    return (cudaError_t.cudaErrorInvalidValue,)


def cudaGraphUpload(graphExec, stream):
    return (cudaError_t.cudaSuccess,)


def cudaGraphLaunch(graphExec, stream):
    for _, call in _execs[int(graphExec)]:
        call()
    return (cudaError_t.cudaSuccess,)


def cudaGraphExecDestroy(graphExec):
    _execs.pop(int(graphExec), None)
    return (cudaError_t.cudaSuccess,)


def cudaGraphDestroy(graph):
    for node in _graphs.pop(int(graph), []):
        _nodes.pop(node, None)
    return (cudaError_t.cudaSuccess,)
