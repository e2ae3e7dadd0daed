"""The log every fake appends to: (api, args) tuples, and the callables handed over."""
CALLS = []


def record(api, *args):
    CALLS.append((api,) + args)
