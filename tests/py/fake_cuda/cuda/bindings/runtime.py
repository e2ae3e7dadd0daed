"""A stand-in for cuda.bindings.runtime; see __init__.py."""
from ._fake import Handle, Params, call_host_fn, call_stream_callback, capture_mode_enum, check, error_enum

cudaError_t = error_enum("cudaError_t", "cudaSuccess")
cudaStreamCaptureMode = capture_mode_enum("cudaStreamCaptureMode", "cudaStreamCaptureMode")
OK = cudaError_t.cudaSuccess


class cudaStream_t(Handle): pass
class cudaGraph_t(Handle): pass
class cudaGraphNode_t(Handle): pass
class cudaGraphExec_t(Handle): pass
class cudaHostFn_t(Handle): pass
class cudaStreamCallback_t(Handle): pass


class cudaHostNodeParams(Params):
    fn_type = cudaHostFn_t


def cudaLaunchHostFunc(stream, fn, userData):
    check(stream, cudaStream_t, "stream"), check(fn, cudaHostFn_t, "fn")
    call_host_fn(fn, userData)
    return (OK,)


def cudaGraphAddHostNode(graph, pDependencies, numDependencies, pNodeParams):
    check(graph, cudaGraph_t, "graph"), check(pNodeParams, cudaHostNodeParams, "pNodeParams")
    for d in pDependencies:
        check(d, cudaGraphNode_t, "pDependencies")
    if numDependencies != len(pDependencies):
        raise ValueError("numDependencies is not len(pDependencies)")
    call_host_fn(pNodeParams.fn, pNodeParams.userData)
    return OK, cudaGraphNode_t(init_value=0x10)


def cudaStreamAddCallback(stream, callback, userData, flags):
    check(stream, cudaStream_t, "stream"), check(callback, cudaStreamCallback_t, "callback")
    call_stream_callback(callback, stream, userData)
    return (OK,)


def cudaStreamBeginCapture(stream, mode):
    check(stream, cudaStream_t, "stream"), check(mode, cudaStreamCaptureMode, "mode")
    return (OK,)


def cudaStreamEndCapture(stream):
    check(stream, cudaStream_t, "stream")
    return OK, cudaGraph_t(init_value=0x20)


def cudaGraphHostNodeSetParams(node, pNodeParams):
    check(node, cudaGraphNode_t, "node"), check(pNodeParams, cudaHostNodeParams, "pNodeParams")
    call_host_fn(pNodeParams.fn, pNodeParams.userData)
    return (OK,)


def cudaGraphExecHostNodeSetParams(hGraphExec, node, pNodeParams):
    check(hGraphExec, cudaGraphExec_t, "hGraphExec"), check(node, cudaGraphNode_t, "node")
    check(pNodeParams, cudaHostNodeParams, "pNodeParams")
    call_host_fn(pNodeParams.fn, pNodeParams.userData)
    return (OK,)
