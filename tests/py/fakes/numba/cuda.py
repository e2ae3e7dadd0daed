from calls import record


class _Handle:
    def __init__(self, value):
        self.value = value


class Stream:
    def __init__(self, ptr):
        self.handle = _Handle(ptr)

    def add_callback(self, callback, arg=None):
        record("Stream.add_callback", self, callback, arg)


def external_stream(ptr):
    record("external_stream", ptr)
    return Stream(ptr)
