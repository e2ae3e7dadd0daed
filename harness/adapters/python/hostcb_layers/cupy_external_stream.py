"""CuPy's Stream.launch_host_func on a stream CuPy wraps (cupy.cuda.ExternalStream), and a
capture begun by CuPy itself (Stream.begin_capture / end_capture).

What CuPy keeps (read in cupy/cuda/stream.pyx and cupy_backends/cuda/api/runtime.pyx, v14.2.0):
outside a capture, launch_host_func passes (f, 0) to runtime.launchHostFunc, which Py_INCREFs a
(callable, arg) tuple and Py_DECREFs it in the first call of its trampoline. While
`self.is_capturing()`, it calls runtime._launchHostFuncUnmanaged (no reference taken) and
appends the tuple to `self._graph_host_funcargs`, which end_capture hands to the
cupy.cuda.Graph it returns (CuPy #9274, fixed by PR #9279 in 13.6.0 and 14.0.0). The records
therefore live as long as that Graph object, and only when the capture was begun through the
same CuPy stream object: on a fresh ExternalStream over a stream someone else is capturing,
`_graph_host_funcargs` is None and the append raises after the node was enqueued.

end_capture returns cupy.cuda.Graph, whose readonly `graph` attribute is the raw cudaGraph_t
(`graphExec` is CuPy's own instance). hostcb owns and destroys the graph it is given, while
Graph.__dealloc__ destroys `graph` too, so the module gives hostcb a clone
(cupy.cuda.runtime has no graphClone; the clone is made with cuda.bindings.runtime, which
cupy-cuda13x depends on) and keeps the Graph object for the life of the process, as a user
holds the Graph it launches: CuPy ties the callback records to that object, by design.
"""
import cupy

from hostcb_layers import _cfuncs

NAME = "cupy_external_stream"

# The CuPy stream objects that began a capture, by raw handle: the user's `s` between
# s.begin_capture() and s.end_capture().
_capturing = {}
# Graphs CuPy returned: a CuPy user keeps the Graph to launch it (see the docstring).
_graphs = []


def _stream(stream):
    return _capturing.get(stream) or cupy.cuda.ExternalStream(stream)


def launch_host_func(stream, fn, user_data):
    c_fn = _cfuncs.host_fn(fn)

    def host_func(arg):
        c_fn(arg)

    _stream(stream).launch_host_func(host_func, user_data)
    return 0


def begin_capture(stream, mode):
    s = cupy.cuda.ExternalStream(stream)
    s.begin_capture(mode)
    _capturing[stream] = s
    return 0


def end_capture(stream):
    s = _capturing.pop(stream)
    graph = s.end_capture()
    _graphs.append(graph)
    from cuda.bindings import runtime

    err, clone = runtime.cudaGraphClone(graph.graph)
    if int(err) != 0:
        return int(err), 0
    return 0, int(clone)


def versions():
    return _cfuncs.package_versions("cupy-cuda13x", "cupy-cuda12x", "cupy", "cuda-bindings")


def describe():
    return "%s: cupy.cuda.ExternalStream(ptr).launch_host_func; begin_capture/end_capture" % (
        _cfuncs.first_installed("cupy-cuda13x", "cupy-cuda12x", "cupy") or "cupy")
