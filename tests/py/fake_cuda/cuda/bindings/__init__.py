"""A stand-in for cuda.bindings (runtime and driver) with the real API's shapes, for
running hostcb_layers' cuda_bindings modules without a GPU: handle types built with
init_value=, host-node parameter structs, results as tuples led by an error enum. Every
call that enqueues host work calls it at once, from a thread of its own, as a driver
would. Types are checked as strictly as the real bindings' wrappers check them."""
