from calls import record


def launchHostFunc(stream, callback, arg):
    record("runtime.launchHostFunc", stream, callback, arg)
