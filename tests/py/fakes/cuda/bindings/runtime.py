from calls import record


def cudaGraphClone(graph):
    record("cudaGraphClone", graph)
    return 0, graph + 0x10
