#include "python_embed.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace hostcb_python {

namespace {

// hostcb loads adapters with RTLD_LOCAL, but Python's extension modules (_ctypes, the
// bindings) look for the interpreter's symbols globally: make whatever object holds
// libpython (libpython3.x.so, or this adapter if it was linked statically) global.
bool make_python_symbols_global() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&Py_InitializeFromConfig), &info) || !info.dli_fname) return false;
  return dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD) != nullptr;
}

}  // namespace

bool start_interpreter(const std::string& python, std::string& why) {
  if (Py_IsInitialized()) return true;
  if (!make_python_symbols_global()) {
    why = "cannot make libpython's symbols global for extension modules";
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
      why = "cannot use " + python + " as the program name";
      return false;
    }
  }
  PyStatus status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(status)) {
    why = std::string("Python did not start: ") + (status.err_msg ? status.err_msg : "?");
    return false;
  }
  PyEval_SaveThread();  // release the GIL: from now on every user takes it when needed
  return true;
}

std::string take_error() {
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
  for (char& c : text)
    if (c == '\n') c = ' ';  // hostcb reports it as one line
  return text;
}

void collect_garbage() {
  static PyObject* collect = [] {
    PyObject* gc = PyImport_ImportModule("gc");
    PyObject* function = gc ? PyObject_GetAttrString(gc, "collect") : nullptr;
    Py_XDECREF(gc);
    return function;  // kept for the life of the process
  }();
  PyObject* result = collect ? PyObject_CallNoArgs(collect) : nullptr;
  if (!result) PyErr_Clear();
  Py_XDECREF(result);
}

bool put_first_on_sys_path(const std::string& folder, std::string& why) {
  PyObject* path = PySys_GetObject("path");  // borrowed
  PyObject* entry = PyUnicode_FromString(folder.c_str());
  bool ok = path && entry && PyList_Insert(path, 0, entry) == 0;
  Py_XDECREF(entry);
  if (!ok) why = "cannot put " + folder + " on sys.path: " + take_error();
  return ok;
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

std::string this_library_folder() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&this_library_folder), &info) || !info.dli_fname) return ".";
  std::string path = info.dli_fname;
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace hostcb_python
