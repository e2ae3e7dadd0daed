from calls import record


def cuGraphClone(graph):
    record("cuGraphClone", graph)
    return 0, graph + 0x10
