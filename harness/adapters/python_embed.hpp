// Embedding CPython for the Python adapters: the interpreter, started once per process;
// the GIL; Python errors as one line of text; and what the adapter needs from the
// interpreter between calls (gc.collect, sys.path).
//
// The GIL: start_interpreter() releases it as soon as the interpreter is up, so CUDA's
// callback thread can take it whenever a layer's trampoline wants it (the cuda.bindings
// trampolines do, `with gil:`). Every other use holds a Gil for the length of one call.
// The interpreter is never finalized: callbacks may still arrive until the process ends.
#pragma once
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string>

namespace hostcb_python {

// Starts the interpreter as `python` (a path to a python3, whose venv and site-packages
// apply; "" for the default) would start, unless one is running already (the other
// Python adapter, or a host process). Then no thread holds the GIL. On failure, says why.
bool start_interpreter(const std::string& python, std::string& why);

// Holds the GIL for its lifetime, from any thread.
class Gil {
 public:
  Gil() : state_(PyGILState_Ensure()) {}
  ~Gil() { PyGILState_Release(state_); }
  Gil(const Gil&) = delete;
  Gil& operator=(const Gil&) = delete;

 private:
  PyGILState_STATE state_;
};

// The Python error being raised, as one line ("TypeError: ..."), and cleared. GIL held.
std::string take_error();

// gc.collect(): frees what only reference cycles keep alive. GIL held; an error in it
// is cleared (the call it follows has its own result).
void collect_garbage();

// Puts `folder` first on sys.path. GIL held.
bool put_first_on_sys_path(const std::string& folder, std::string& why);

// The first `program` on PATH, or "".
std::string find_on_path(const std::string& program);

// The folder holding the shared object this code is in (the adapter library).
std::string this_library_folder();

}  // namespace hostcb_python
