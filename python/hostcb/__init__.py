"""hostcb from Python: CUDA host callbacks under graph replay, through your layer.

    import hostcb
    for scenario in hostcb.list("cuda_bindings:runtime", filter="replay/*"):
        print(scenario.id)
    run = hostcb.run("cuda_bindings:runtime", filter="replay/*", axes={"replays": [2, 5]})
    for result in run:
        print(result.status.value, result.id, result.reason)

A layer is a ready name (`cuda_bindings:runtime`), a layer module (`mypackage.mylayer` or
`path/to/mylayer.py`) or an adapter library (`libmylayer.so`), options after `@` as for
`hostcb run --adapter`. The pytest plugin (`pytest --hostcb-layer LAYER`) is built on this.
"""
from ._api import list_scenarios, run
from ._binary import binary, prefix
from ._results import (Adapter, Failure, HostcbError, HostcbWarning, Listing, Result, Run, Scenario, Status,
                       UsageError)

list = list_scenarios  # hostcb.list(...): the name the docs use; list_scenarios inside the package

__all__ = ["Adapter", "Failure", "HostcbError", "HostcbWarning", "Listing", "Result", "Run", "Scenario", "Status", "UsageError",
           "binary", "list", "list_scenarios", "prefix", "run"]
