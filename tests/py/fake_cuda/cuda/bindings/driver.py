"""A stand-in for cuda.bindings.driver; see __init__.py."""
from ._fake import Handle, Params, call_host_fn, call_stream_callback, capture_mode_enum, check, error_enum

CUresult = error_enum("CUresult", "CUDA_SUCCESS")
CUstreamCaptureMode = capture_mode_enum("CUstreamCaptureMode", "CU_STREAM_CAPTURE_MODE_")
OK = CUresult.CUDA_SUCCESS


class CUstream(Handle): pass
class CUgraph(Handle): pass
class CUgraphNode(Handle): pass
class CUgraphExec(Handle): pass
class CUhostFn(Handle): pass
class CUstreamCallback(Handle): pass


class CUDA_HOST_NODE_PARAMS(Params):
    fn_type = CUhostFn


def cuLaunchHostFunc(hStream, fn, userData):
    check(hStream, CUstream, "hStream"), check(fn, CUhostFn, "fn")
    call_host_fn(fn, userData)
    return (OK,)


def cuGraphAddHostNode(hGraph, dependencies, numDependencies, nodeParams):
    check(hGraph, CUgraph, "hGraph"), check(nodeParams, CUDA_HOST_NODE_PARAMS, "nodeParams")
    for d in dependencies:
        check(d, CUgraphNode, "dependencies")
    if numDependencies != len(dependencies):
        raise ValueError("numDependencies is not len(dependencies)")
    call_host_fn(nodeParams.fn, nodeParams.userData)
    return OK, CUgraphNode(init_value=0x10)


def cuStreamAddCallback(hStream, callback, userData, flags):
    check(hStream, CUstream, "hStream"), check(callback, CUstreamCallback, "callback")
    call_stream_callback(callback, hStream, userData)
    return (OK,)


def cuStreamBeginCapture(hStream, mode):
    check(hStream, CUstream, "hStream"), check(mode, CUstreamCaptureMode, "mode")
    return (OK,)


def cuStreamEndCapture(hStream):
    check(hStream, CUstream, "hStream")
    return OK, CUgraph(init_value=0x20)


def cuGraphHostNodeSetParams(hNode, nodeParams):
    check(hNode, CUgraphNode, "hNode"), check(nodeParams, CUDA_HOST_NODE_PARAMS, "nodeParams")
    call_host_fn(nodeParams.fn, nodeParams.userData)
    return (OK,)


def cuGraphExecHostNodeSetParams(hGraphExec, hNode, nodeParams):
    check(hGraphExec, CUgraphExec, "hGraphExec"), check(hNode, CUgraphNode, "hNode")
    check(nodeParams, CUDA_HOST_NODE_PARAMS, "nodeParams")
    call_host_fn(nodeParams.fn, nodeParams.userData)
    return (OK,)
