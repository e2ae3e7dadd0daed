"""A layer module implementing the whole module protocol of the embedded-Python adapter
(docs/adapters.md), for testing it without a GPU: every operation proves the pointers
arrived by calling the function at once, from a thread of its own as a driver would,
while the calling thread waits (releasing the GIL in join)."""
import ctypes
import threading

NAME = "py_layer"

HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)  # foreign calls: run without the GIL
STREAM_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
_NODE, _GRAPH = 0x10, 0x20  # stand-in handles: the stub family never gives them to CUDA


def _on_a_thread(function, *args):
    thread = threading.Thread(target=function, args=args)
    thread.start()
    thread.join()


def launch_host_func(stream, fn, user_data):
    _on_a_thread(HOST_FN(fn), user_data)
    return 0


def add_host_node(graph, deps, fn, user_data):
    if not isinstance(deps, list) or not all(isinstance(d, int) for d in deps):
        raise TypeError("deps is not a list of ints: %r" % (deps,))
    return launch_host_func(None, fn, user_data), _NODE


def add_stream_callback(stream, callback, user_data):
    _on_a_thread(STREAM_CALLBACK(callback), stream, 0, user_data)
    return 0


def begin_capture(stream, mode):
    return 0 if mode in (0, 1, 2) else 1  # cudaErrorInvalidValue


def end_capture(stream):
    return 0, _GRAPH


def graph_set_host_node(graph, node, fn, user_data):
    return launch_host_func(None, fn, user_data)


def exec_set_host_node(exec_, node, fn, user_data):
    return launch_host_func(None, fn, user_data)


def versions():
    return {"fake-layer": "4.5.6", "python": "3.0.0"}


def describe():
    return "fake layer module for tests"
