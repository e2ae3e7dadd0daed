"""Fake cuda.core: Stream.from_handle(ptr).create_graph_builder() and the builder's calls."""
from calls import record


class GraphDefinition:
    def __init__(self, handle):
        self.handle = handle


class GraphBuilder:
    def __init__(self, stream):
        self.stream = stream

    def begin_building(self, mode="relaxed"):
        record("GraphBuilder.begin_building", self, mode)
        return self

    def callback(self, fn, *, user_data=None):
        record("GraphBuilder.callback", self, fn, user_data)

    def end_building(self):
        record("GraphBuilder.end_building", self)
        return self

    @property
    def graph_definition(self):
        return GraphDefinition(0x7000)

    def close(self):
        record("GraphBuilder.close", self)


class Stream:
    def __init__(self, handle):
        self.handle = handle

    @staticmethod
    def from_handle(handle):
        record("Stream.from_handle", handle)
        return Stream(handle)

    def create_graph_builder(self):
        return GraphBuilder(self)
