// Embedding CPython for the Python adapters: the interpreter, started once per process from
// the libpython of the python3 it is given (python_interpreter.hpp, python_api.hpp); the
// GIL; Python errors as one line of text; and what the adapter needs from the interpreter
// between calls (gc.collect, sys.path).
//
// The GIL: start_interpreter() releases it as soon as the interpreter is up, so CUDA's
// callback thread can take it whenever a layer's trampoline wants it (the cuda.bindings
// trampolines do, `with gil:`). Every other use holds a Gil for the length of one call.
// The interpreter is never finalized: callbacks may still arrive until the process ends.
#pragma once

#include <string>

#include "python_api.hpp"

namespace hostcb_python {

// Starts the interpreter as `python` (a path to a python3, whose venv and site-packages
// apply) would start, from the shared libpython it runs on, unless it is running already
// (the other Python adapter started it). `origin` says where `python` came from, for the
// message ("python=", "HOSTCB_PYTHON=", "python3 on PATH: "). Then no thread holds the
// GIL. On failure, says why in one line: an interpreter that cannot be run or is no
// CPython 3.9+, one without a shared libpython, or another Python already running here.
bool start_interpreter(const std::string& python, const std::string& origin, std::string& why);

// Holds the GIL for its lifetime, from any thread.
class Gil {
 public:
  Gil() : state_(py.PyGILState_Ensure()) {}
  ~Gil() { py.PyGILState_Release(state_); }
  Gil(const Gil&) = delete;
  Gil& operator=(const Gil&) = delete;

 private:
  int state_;
};

// The Python error being raised, as one line ("TypeError: ..."), and cleared. GIL held.
std::string take_error();

// gc.collect(): frees what only reference cycles keep alive. GIL held; an error in it
// is cleared (the call it follows has its own result).
void collect_garbage();

// Puts `folder` first on sys.path. GIL held.
bool put_first_on_sys_path(const std::string& folder, std::string& why);

// Whether `value` is an instance of `type` (py.PyUnicode_Type, ...); an error is cleared.
bool is_a(PyObject* value, PyObject* type);

// The folder holding the shared object this code is in (the adapter library).
std::string this_library_folder();

}  // namespace hostcb_python
