"""A `cuda` package without `bindings`: on PYTHONPATH it hides any installed cuda-bindings,
so that a test sees what a machine without it says."""
