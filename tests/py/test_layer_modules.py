"""CPU tests of the layer modules' plumbing (harness/adapters/python/hostcb_layers), with fake
cupy, numba and cuda.core packages (tests/py/fakes): each module is imported, each of its
functions called; it must call the layer's public API with the right arguments, hand over a
callable that calls hostcb's C function through ctypes with the right arguments, and keep no
reference to that callable (keeping it is the layer's job, which is what hostcb tests).

Run: python3 tests/py/test_layer_modules.py [ROOT]   (ROOT: the repository; default ../..)
"""
import ctypes
import gc
import os
import sys
import unittest
import weakref

# The fakes stand in for real packages under the real names (cupy, numba, cuda): they must
# never meet those packages, nor the import hooks their .pth files install. numba-cuda's
# sends `numba.cuda` to the real numba-cuda, which then imported the fake numba and failed
# (`No module named 'numba.core'`, issue 26 item 17). So the tests run in an interpreter that
# sees no site-packages at all: -I (no PYTHONPATH, no user site) and -S (no site module, so
# no .pth file runs). The script starts itself again so, however it was started.
if __name__ == "__main__" and not (sys.flags.isolated and sys.flags.no_site):
    os.execv(sys.executable, [sys.executable, "-I", "-S"] + sys.argv)

HERE = os.path.dirname(os.path.abspath(__file__))
FAKES = os.path.join(HERE, "fakes")
ROOT = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [FAKES, os.path.join(ROOT, "harness", "adapters", "python")]

from calls import CALLS  # noqa: E402  (the fakes' log)

HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
STREAM_CB = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)

STREAM = 0x1000
USER_DATA = 0xBEEF


class CFunctions:
    """Real C-callable functions (ctypes thunks) standing in for hostcb's, with their calls."""

    def __init__(self):
        self.host_calls = []
        self.stream_calls = []
        self._host = HOST_FN(lambda data: self.host_calls.append(data))
        self._stream = STREAM_CB(lambda stream, status, data: self.stream_calls.append((stream, status, data)))
        self.host_fn = ctypes.cast(self._host, ctypes.c_void_p).value
        self.stream_callback = ctypes.cast(self._stream, ctypes.c_void_p).value


def take(api):
    """The one call of api in the log, removed from it."""
    hits = [c for c in CALLS if c[0] == api]
    assert len(hits) == 1, "%s called %d times: %r" % (api, len(hits), CALLS)
    CALLS.remove(hits[0])
    return hits[0][1:]


def real_modules_loaded():
    """The loaded modules of the faked packages that are not the fakes' own: there must be
    none, or the layer modules are not being tested against the fakes."""
    def from_fakes(module):
        path = getattr(module, "__file__", None)
        return bool(path) and os.path.abspath(path).startswith(FAKES + os.sep)
    return sorted(name for name, module in list(sys.modules.items())
                  if name.split(".")[0] in ("cupy", "numba", "numba_cuda_mlir", "cuda") and module is not None and not from_fakes(module))


class ModuleCase(unittest.TestCase):
    module_name = None

    def setUp(self):
        del CALLS[:]
        self.c = CFunctions()
        self.m = __import__("hostcb_layers." + self.module_name, fromlist=["*"])
        self.assertEqual(real_modules_loaded(), [], "a real package was imported beside the fakes")

    def assert_not_kept(self, ref):
        """ref: a weak reference to the callable the module gave the layer, whose other
        references the test dropped. Dropping the fakes' log too, the callable must die,
        since the module kept none."""
        del CALLS[:]
        gc.collect()
        self.assertIsNone(ref(), "the module kept a reference to the callable it gave the layer")

    def assert_metadata(self):
        self.assertEqual(self.m.NAME, self.module_name)
        v = self.m.versions()
        self.assertIsInstance(v, dict)
        self.assertIn("python", v)
        self.assertTrue(all(isinstance(k, str) and isinstance(x, str) for k, x in v.items()))
        d = self.m.describe()
        self.assertIsInstance(d, str)
        self.assertNotIn("\n", d)


class CupyExternalStream(ModuleCase):
    module_name = "cupy_external_stream"

    def test_launch_host_func(self):
        self.assertEqual(self.m.launch_host_func(STREAM, self.c.host_fn, USER_DATA), 0)
        self.assertEqual(take("ExternalStream"), (STREAM,))
        stream, callback, arg = take("Stream.launch_host_func")
        self.assertEqual(stream.ptr, STREAM)
        self.assertEqual(arg, USER_DATA)
        callback(arg)  # CuPy calls callback(arg)
        self.assertEqual(self.c.host_calls, [USER_DATA])
        del stream
        ref = weakref.ref(callback)
        del callback
        self.assert_not_kept(ref)

    def test_capture_uses_the_stream_that_began_it(self):
        self.assertEqual(self.m.begin_capture(STREAM, 1), 0)
        began, mode = take("Stream.begin_capture")
        self.assertEqual((began.ptr, mode), (STREAM, 1))
        self.assertEqual(self.m.launch_host_func(STREAM, self.c.host_fn, USER_DATA), 0)
        stream, callback, arg = take("Stream.launch_host_func")
        self.assertIs(stream, began)
        callback(arg)
        self.assertEqual(self.c.host_calls, [USER_DATA])
        code, graph = self.m.end_capture(STREAM)
        self.assertIs(take("Stream.end_capture")[0], began)
        self.assertEqual(take("cudaGraphClone"), (0x6000,))
        self.assertEqual((code, graph), (0, 0x6010))
        del stream, began
        ref = weakref.ref(callback)
        del callback
        self.assert_not_kept(ref)

    def test_metadata(self):
        self.assert_metadata()


class CupyAddCallback(ModuleCase):
    module_name = "cupy_add_callback"

    def test_add_stream_callback(self):
        self.assertEqual(self.m.add_stream_callback(STREAM, self.c.stream_callback, USER_DATA), 0)
        stream, callback, arg = take("Stream.add_callback")
        self.assertEqual((stream.ptr, arg), (STREAM, USER_DATA))
        callback(stream, 7, arg)  # CuPy calls callback(self, status, arg): the Stream object
        self.assertEqual(self.c.stream_calls, [(STREAM, 7, USER_DATA)])
        del stream
        ref = weakref.ref(callback)
        del callback
        self.assert_not_kept(ref)

    def test_no_host_function_launch(self):
        self.assertFalse(hasattr(self.m, "launch_host_func"))  # stream callbacks only: excluded, not faked

    def test_no_capture(self):
        self.assertFalse(hasattr(self.m, "begin_capture"))

    def test_metadata(self):
        self.assert_metadata()


class CupyRuntime(ModuleCase):
    module_name = "cupy_runtime"

    def test_launch_host_func(self):
        self.assertEqual(self.m.launch_host_func(STREAM, self.c.host_fn, USER_DATA), 0)
        stream, callback, arg = take("runtime.launchHostFunc")
        self.assertEqual((stream, arg), (STREAM, USER_DATA))
        callback(arg)
        self.assertEqual(self.c.host_calls, [USER_DATA])
        ref = weakref.ref(callback)
        del callback
        self.assert_not_kept(ref)

    def test_metadata(self):
        self.assert_metadata()


class NumbaAddCallback(ModuleCase):
    module_name = "numba_add_callback"
    api_prefix = ""  # the fake's log names: numba's unprefixed, numba_cuda_mlir's prefixed

    def test_add_stream_callback(self):
        self.assertEqual(self.m.add_stream_callback(STREAM, self.c.stream_callback, USER_DATA), 0)
        self.assertEqual(take(self.api_prefix + "external_stream"), (STREAM,))
        stream, callback, arg = take(self.api_prefix + "Stream.add_callback")
        self.assertEqual(arg, USER_DATA)
        callback(stream, 3, arg)  # numba-cuda calls callback(stream, status, arg)
        self.assertEqual(self.c.stream_calls, [(STREAM, 3, USER_DATA)])
        del stream
        ref = weakref.ref(callback)
        del callback
        self.assert_not_kept(ref)

    def test_no_host_function_launch(self):
        self.assertFalse(hasattr(self.m, "launch_host_func"))  # stream callbacks only: excluded, not faked

    def test_metadata(self):
        self.assert_metadata()


class NumbaCudaMlirAddCallback(NumbaAddCallback):
    """numba-cuda-mlir shares numba-cuda's stream code; its handles are cuda.bindings CUstreams."""
    module_name = "numba_cuda_mlir_add_callback"
    api_prefix = "numba_cuda_mlir."


class CudaCoreGraphBuilder(ModuleCase):
    module_name = "cuda_core_graph_builder"

    def test_capture(self):
        self.assertEqual(self.m.begin_capture(STREAM, 0), 0)
        self.assertEqual(take("Stream.from_handle"), (STREAM,))
        builder, mode = take("GraphBuilder.begin_building")
        self.assertEqual((builder.stream.handle, mode), (STREAM, "global"))
        self.assertEqual(self.m.launch_host_func(STREAM, self.c.host_fn, USER_DATA), 0)
        same, fn, user_data = take("GraphBuilder.callback")
        self.assertIs(same, builder)
        self.assertIsNone(user_data)  # a Python callable takes no user_data in cuda.core
        fn()  # cuda.core calls the callable with no arguments
        self.assertEqual(self.c.host_calls, [USER_DATA])
        self.assertEqual(self.m.end_capture(STREAM), (0, 0x7010))
        take("GraphBuilder.end_building")
        self.assertEqual(take("cuGraphClone"), (0x7000,))
        take("GraphBuilder.close")
        del builder, same
        ref = weakref.ref(fn)
        del fn
        self.assert_not_kept(ref)

    def test_modes(self):
        for mode, name in ((1, "thread_local"), (2, "relaxed")):
            self.m.begin_capture(STREAM, mode)
            self.assertEqual(take("GraphBuilder.begin_building")[1], name)
            self.m.end_capture(STREAM)

    def test_no_stream_side_launch(self):
        with self.assertRaises(NotImplementedError):
            self.m.launch_host_func(STREAM, self.c.host_fn, USER_DATA)

    def test_metadata(self):
        self.assert_metadata()


if __name__ == "__main__":
    unittest.main(verbosity=2)
