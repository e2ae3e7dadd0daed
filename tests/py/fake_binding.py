"""A stand-in for a Python binding's launch, for testing the embedded-Python adapter
without a GPU: calls the host function from a thread of its own, as a driver would,
while the launching thread waits (releasing the GIL in join)."""
import ctypes
import threading

HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)  # a foreign call: runs without the GIL


def launch(stream, fn, user_data):
    thread = threading.Thread(target=HOST_FN(fn), args=(user_data,))
    thread.start()
    thread.join()
    return 0


def refuses(stream, fn, user_data):
    return 700  # as a layer returning a CUDA error would


def raises(stream, fn, user_data):
    raise RuntimeError("the binding blew up")
