// The embedded-Python adapter: forwards launch_host_func to a Python function
//
//     launch(stream: int, fn: int, user_data: int) -> int   (0 or a CUDA error code)
//
// so any Python layer can be put under test. Built twice from this file:
//   hostcb_python_runtime  name cuda_bindings_runtime, calls cuda.bindings.runtime.cudaLaunchHostFunc
//   hostcb_python_driver   name cuda_bindings_driver,  calls cuda.bindings.driver.cuLaunchHostFunc
// Options (--adapter PATH@key=value,key=value):
//   callable=module:function   another launch() to call (CuPy's stream host functions,
//                              a user's own layer); the module is imported from sys.path
//   name=NAME                  the forward-axis name (default as above)
//   python=PATH                the python3 whose environment (venv, site-packages) to use;
//                              default: HOSTCB_PYTHON, else `python3` on PATH
//
// The GIL: the interpreter starts once per process and the GIL is released right after,
// so CUDA's callback thread can take it whenever the layer's trampoline wants it (the
// cuda.bindings trampolines do, `with gil:`). A launch takes the GIL only for the call.
// The interpreter is never finalized: callbacks may still arrive until the process ends.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <hostcb/adapter.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

// The default launch() functions, given to the interpreter as a module. ctypes cells
// hold the function pointers: the bindings' handle types take the *address* of a cell
// holding the value (passing the value itself crashes, ../shared/cuda-facts.md). Cells
// are kept for the life of the process because a layer may read them at any time.
constexpr const char* kDefaultModule = R"PY(
import ctypes
_cells = []

def _cell(fn):
    cell = ctypes.c_void_p(fn)
    _cells.append(cell)
    return ctypes.addressof(cell)

def runtime_launch(stream, fn, user_data):
    from cuda.bindings import runtime
    err, = runtime.cudaLaunchHostFunc(runtime.cudaStream_t(init_value=stream),
                                      runtime.cudaHostFn_t(_ptr=_cell(fn)), user_data)
    return int(err)

def driver_launch(stream, fn, user_data):
    from cuda.bindings import driver
    err, = driver.cuLaunchHostFunc(driver.CUstream(init_value=stream),
                                   driver.CUhostFn(_ptr=_cell(fn)), user_data)
    return int(err)

def describe(module_name):
    import sys, importlib.metadata as md
    parts = ["Python %d.%d.%d (%s)" % (sys.version_info[:3] + (sys.executable,))]
    for dist in ("cuda-bindings", "cuda-python", "cupy-cuda13x", "cupy-cuda12x", "cupy"):
        try:
            parts.append("%s %s" % (dist, md.version(dist)))
        except Exception:
            pass
    parts.append("via " + module_name)
    return "; ".join(parts)
)PY";

std::string g_name = std::string("cuda_bindings_") + HOSTCB_PYTHON_TARGET;
std::string g_callable;  // "module:function"; empty for the default
std::string g_describe;
thread_local std::string t_last_error;
PyObject* g_launch = nullptr;  // a strong reference, kept for the life of the process

// The Python error being raised, as one line, and cleared.
std::string take_python_error() {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  std::string text = "unknown Python error";
  if (value) {
    if (PyObject* s = PyObject_Str(value)) {
      if (const char* c = PyUnicode_AsUTF8(s)) text = c;
      Py_DECREF(s);
    }
  }
  if (type) {
    if (PyObject* n = PyObject_GetAttrString(type, "__name__")) {
      if (const char* c = PyUnicode_AsUTF8(n)) text = std::string(c) + ": " + text;
      Py_DECREF(n);
    }
  }
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  PyErr_Clear();
  return text;
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// hostcb loads adapters with RTLD_LOCAL, but Python's extension modules (_ctypes, the
// bindings) look for the interpreter's symbols globally: make whatever object holds
// libpython (libpython3.x.so, or this adapter if it was linked statically) global.
bool make_python_symbols_global() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&Py_InitializeFromConfig), &info) || !info.dli_fname) return false;
  return dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD) != nullptr;
}

// Starts the interpreter as `python` would start, so its venv and site-packages apply.
bool start_interpreter(const std::string& python) {
  if (Py_IsInitialized()) return true;  // the other Python adapter, or a host process
  if (!make_python_symbols_global()) {
    t_last_error = "cannot make libpython's symbols global for extension modules";
    return false;
  }
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.install_signal_handlers = 0;  // hostcb's SIGINT handling stays hostcb's
  config.parse_argv = 0;
  if (!python.empty()) {
    PyStatus status = PyConfig_SetBytesString(&config, &config.program_name, python.c_str());
    if (PyStatus_Exception(status)) {
      PyConfig_Clear(&config);
      t_last_error = "cannot use " + python + " as the program name";
      return false;
    }
  }
  PyStatus status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(status)) {
    t_last_error = std::string("Python did not start: ") + (status.err_msg ? status.err_msg : "?");
    return false;
  }
  PyEval_SaveThread();  // release the GIL: from now on every user takes it when needed
  return true;
}

// Imports module:function (or the default for this build) into g_launch; GIL held.
bool resolve_launch() {
  PyObject* module = nullptr;
  std::string function;
  std::string module_name;
  if (g_callable.empty()) {
    PyObject* code = Py_CompileString(kDefaultModule, "<hostcb_python_adapter>", Py_file_input);
    module = code ? PyImport_ExecCodeModule("hostcb_python_adapter_defaults", code) : nullptr;
    Py_XDECREF(code);
    function = std::string(HOSTCB_PYTHON_TARGET) + "_launch";
    module_name = std::string(HOSTCB_PYTHON_TARGET) == "runtime" ? "cuda.bindings.runtime.cudaLaunchHostFunc"
                                                                 : "cuda.bindings.driver.cuLaunchHostFunc";
  } else {
    std::size_t colon = g_callable.find(':');
    if (colon == std::string::npos) {
      t_last_error = "callable= takes module:function; got '" + g_callable + "'";
      return false;
    }
    module = PyImport_ImportModule(g_callable.substr(0, colon).c_str());
    function = g_callable.substr(colon + 1);
    module_name = g_callable;
  }
  if (!module) {
    t_last_error = take_python_error();
    return false;
  }
  g_launch = PyObject_GetAttrString(module, function.c_str());
  if (!g_launch || !PyCallable_Check(g_launch)) {
    t_last_error = g_launch ? function + " is not callable" : take_python_error();
    Py_DECREF(module);
    return false;
  }
  // What was driven, with versions (the defaults module knows how to ask).
  PyObject* code = Py_CompileString(kDefaultModule, "<hostcb_python_adapter>", Py_file_input);
  PyObject* defaults = code ? PyImport_ExecCodeModule("hostcb_python_adapter_describe", code) : nullptr;
  Py_XDECREF(code);
  PyObject* text = defaults ? PyObject_CallMethod(defaults, "describe", "s", module_name.c_str()) : nullptr;
  g_describe = text && PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : "Python (versions unknown)";
  if (!text) PyErr_Clear();
  Py_XDECREF(text);
  Py_XDECREF(defaults);
  Py_DECREF(module);
  return true;
}

int init_adapter(const char* options) {
  std::string python = std::getenv("HOSTCB_PYTHON") ? std::getenv("HOSTCB_PYTHON") : "";
  std::stringstream items(options ? options : "");
  for (std::string item; std::getline(items, item, ',');) {
    std::size_t eq = item.find('=');
    std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "callable") g_callable = value;
    else if (key == "name") g_name = value;
    else if (key == "python") python = value;
    else if (!key.empty()) {
      t_last_error = "unknown option '" + key + "' (callable, name, python)";
      return 1;
    }
  }
  if (python.empty()) python = find_on_path("python3");
  if (!start_interpreter(python)) return 1;
  PyGILState_STATE gil = PyGILState_Ensure();
  bool ok = resolve_launch();
  PyGILState_Release(gil);
  return ok ? 0 : 1;
}

int launch_host_func(void* stream, hostcb_host_fn fn, void* user_data) {
  PyGILState_STATE gil = PyGILState_Ensure();
  PyObject* result = PyObject_CallFunction(g_launch, "KKK", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(stream)),
                                           static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(fn)),
                                           static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(user_data)));
  int code = 0;
  if (!result) {
    t_last_error = take_python_error();
    code = 999;  // cudaErrorUnknown: the Python layer raised instead of returning a code
  } else {
    long value = PyLong_AsLong(result);
    if (value == -1 && PyErr_Occurred()) {
      t_last_error = "launch() did not return an int: " + take_python_error();
      code = 999;
    } else {
      code = static_cast<int>(value);
      if (code != 0) t_last_error = "the Python layer returned " + std::to_string(code);
    }
    Py_DECREF(result);
  }
  PyGILState_Release(gil);
  return code;
}

const char* last_error() { return t_last_error.empty() ? nullptr : t_last_error.c_str(); }
int init(const char* options);
const char* describe() { return g_describe.c_str(); }

hostcb_adapter g_adapter = {
    HOSTCB_ADAPTER_ABI_VERSION, sizeof(hostcb_adapter), nullptr, init,
    nullptr,                 // teardown: the interpreter stays up (callbacks may still come)
    launch_host_func,
    nullptr,                 // add_host_node: the bindings' graph API is not driven yet
    nullptr,                 // add_stream_callback
    last_error, describe,
    nullptr, nullptr,        // begin_capture, end_capture
    nullptr, nullptr,        // graph_set_host_node, exec_set_host_node
    nullptr,                 // versions
};

// hostcb reads the name after init: an option may have changed it.
int init(const char* options) {
  int rc = init_adapter(options);
  g_adapter.name = g_name.c_str();
  return rc;
}

}  // namespace

extern "C" HOSTCB_ADAPTER_EXPORT const hostcb_adapter* hostcb_adapter_v1(void) {
  g_adapter.name = g_name.c_str();  // init may have changed it; hostcb reads it after init
  return &g_adapter;
}
