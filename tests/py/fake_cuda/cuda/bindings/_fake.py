"""The machinery both fake modules share; see __init__.py."""
import ctypes
import enum
import threading

HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)  # foreign calls: run without the GIL
STREAM_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)


class Handle:
    """As the bindings' handle types: the raw value given as init_value=, read with int()."""

    def __init__(self, init_value=0):
        if not isinstance(init_value, int):
            raise TypeError("%s(init_value=) takes an int" % type(self).__name__)
        self._value = init_value

    def __int__(self):
        return self._value


class Params:
    """As cudaHostNodeParams / CUDA_HOST_NODE_PARAMS: fn takes the module's function type."""
    fn_type = None

    def __init__(self):
        self._fn, self.userData = None, 0

    @property
    def fn(self):
        return self._fn

    @fn.setter
    def fn(self, value):
        if not isinstance(value, self.fn_type):
            raise TypeError("fn takes a %s" % self.fn_type.__name__)
        self._fn = value


def check(value, kind, what):
    if not isinstance(value, kind):
        raise TypeError("%s takes a %s, got %s" % (what, kind.__name__, type(value).__name__))


def on_a_thread(function, *args):
    thread = threading.Thread(target=function, args=args)
    thread.start()
    thread.join()


def call_host_fn(fn, user_data):
    on_a_thread(HOST_FN(int(fn)), user_data)


def call_stream_callback(callback, stream, user_data):
    on_a_thread(STREAM_CALLBACK(int(callback)), int(stream), 0, user_data)


def error_enum(name, success):
    return enum.IntEnum(name, {success: 0, "unknown": 999})


def capture_mode_enum(name, prefix):
    return enum.IntEnum(name, {prefix + "GLOBAL": 0, prefix + "THREAD_LOCAL": 1, prefix + "RELAXED": 2})
