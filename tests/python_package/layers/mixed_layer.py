"""A layer module for the plugin's and the API's tests: through the stub CLI's stub_forward
family (CPU only) each operation ends another way: launch_host_func and exec_set_host_node
pass (they call the host function at once, on a thread of their own, as a driver would),
add_host_node fails (it never calls it: the counts are wrong), add_stream_callback crashes
the worker (abort), graph_set_host_node raises (an error), and there is no capture (the
scenario is excluded: skipped). With HOSTCB_TEST_CALLS set, each call appends a line to
that file, the pytest-xdist worker whose hostcb run made it ("main" without xdist) and the
operation's name: what hostcb really ran, and for whom. With HOSTCB_TEST_SLOW=OPERATION,
that operation takes 3 s first (a worker busy in its batch while another is idle)."""
import ctypes
import os
import threading
import time

NAME = "mixed"

HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _log(operation):
    path = os.environ.get("HOSTCB_TEST_CALLS")
    if path:
        with open(path, "a") as f:
            f.write("%s %s\n" % (os.environ.get("PYTEST_XDIST_WORKER", "main"), operation))
    if os.environ.get("HOSTCB_TEST_SLOW") == operation:
        time.sleep(3)


def _call_on_a_thread(fn, user_data):
    thread = threading.Thread(target=HOST_FN(fn), args=(user_data,))
    thread.start()
    thread.join()


def launch_host_func(stream, fn, user_data):
    _log("launch_host_func")
    _call_on_a_thread(fn, user_data)
    return 0


def add_host_node(graph, deps, fn, user_data):
    _log("add_host_node")
    return 0, 0x10  # the host function is never called


def add_stream_callback(stream, callback, user_data):
    _log("add_stream_callback")
    os.abort()


def graph_set_host_node(graph, node, fn, user_data):
    _log("graph_set_host_node")
    raise RuntimeError("the mixed layer refuses graph_set_host_node")


def exec_set_host_node(exec_, node, fn, user_data):
    _log("exec_set_host_node")
    _call_on_a_thread(fn, user_data)
    return 0


def describe():
    return "mixed layer for the plugin's tests"
