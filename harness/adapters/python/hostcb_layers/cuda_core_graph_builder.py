"""cuda.core's GraphBuilder.callback, in a capture begun by cuda.core:
Stream.from_handle(ptr).create_graph_builder().begin_building(mode), builder.callback(fn),
builder.end_building().

What cuda.core keeps (cuda_core/cuda/core/graph/_host_callback.pyx and _graph_builder.pyx,
the 1.2.x line): for a Python callable, the CUhostFn is _py_host_trampoline and userData the
callable itself, borrowed; the callable is wrapped in an owner (make_opaque_py) that is
attached to the graph as a CUDA user object (graph_prepare_attachment / graph_commit_attachment
in _cpp/resource_handles.hpp: cuUserObjectCreate + cuGraphRetainUserObject), so it lives as
long as the graph, its clones and execs hold the user object (GraphBuilder's docstring: "the
callable ... retained for the graph's lifetime"). The callable is passed without user_data:
cuda.core accepts user_data only with a ctypes function pointer, which "the caller must keep
alive for the lifetime of the graph", so that form tests the caller, not cuda.core.

The captured graph belongs to the builder (an owning GraphHandle); hostcb owns and destroys
the graph it is given, so end_capture hands it a clone (cuda.bindings.driver.cuGraphClone,
cuda-core's dependency) and closes the builder, as a user done with it would.

cuda.core 1.2.2 has no stream-side host launch (Stream has no launch_host_func) and no public
way to wrap a CUgraph it did not make (GraphDefinition._from_handle is cdef), so outside a
capture it began, launch_host_func raises, and there is no add_host_node,
graph_set_host_node (HostCallbackNode.update) or exec_set_host_node
(ExecutableHostCallbackNode.update) here.
"""
from cuda.core import Stream

from hostcb_layers import _cfuncs

NAME = "cuda_core_graph_builder"
# cuda.core has no stream-side host launch: its host callbacks exist only in a graph its
# builder captures, on the builder's own stream. A side stream joined to the capture through
# an event (topology's branches) is no builder's: cuda.core forks with GraphBuilder.split and
# joins with GraphBuilder.join, and cannot adopt a stream another API forked. hostcb
# excludes every other launch, naming this.
LAUNCH_SCOPE = "own_capture_stream"

_MODES = {0: "global", 1: "thread_local", 2: "relaxed"}
# The builders between begin_building and end_building, by raw stream handle.
_builders = {}


def begin_capture(stream, mode):
    builder = Stream.from_handle(stream).create_graph_builder()
    builder.begin_building(_MODES[mode])
    _builders[stream] = builder
    return 0


def launch_host_func(stream, fn, user_data):
    builder = _builders.get(stream)
    if builder is None:
        raise NotImplementedError(  # hostcb never asks (LAUNCH_SCOPE); a backstop
            "cuda.core has no stream-side host launch; host callbacks go through "
            "GraphBuilder.callback on the stream of a capture cuda.core began (begin_capture)")
    c_fn = _cfuncs.host_fn(fn)

    def host_callback():
        c_fn(user_data)

    builder.callback(host_callback)
    return 0


def end_capture(stream):
    builder = _builders.pop(stream)
    builder.end_building()
    from cuda.bindings import driver

    err, clone = driver.cuGraphClone(builder.graph_definition.handle)
    builder.close()
    if int(err) != 0:
        return int(err), 0
    return 0, int(clone)


def versions():
    return _cfuncs.package_versions("cuda-core", "cuda-bindings")


def describe():
    return "%s: GraphBuilder.callback in a capture cuda.core began" % (
        _cfuncs.first_installed("cuda-core") or "cuda-core")
