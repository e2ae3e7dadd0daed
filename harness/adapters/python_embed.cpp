#include "python_embed.hpp"

#include <dlfcn.h>

#include <climits>
#include <cstdlib>

#include "python_interpreter.hpp"

namespace hostcb_python {

namespace {

std::string real_path(const std::string& path) {
  char buffer[PATH_MAX];
  return ::realpath(path.c_str(), buffer) ? std::string(buffer) : path;
}

// The libpython another Python adapter (or anything else) has loaded for the whole
// process, or "" where none has. hostcb loads adapters with RTLD_LOCAL; the libpython is
// loaded RTLD_GLOBAL (below), so a second one would be visible here.
std::string libpython_loaded_already() {
  void* symbol = dlsym(RTLD_DEFAULT, "Py_IsInitialized");
  Dl_info info{};
  if (!symbol || !dladdr(symbol, &info) || !info.dli_fname) return "";
  return info.dli_fname;
}

// str(sys.prefix) of the running interpreter. GIL held.
std::string running_prefix() {
  PyObject* prefix = py.PySys_GetObject("prefix");  // borrowed
  const char* text = prefix ? py.PyUnicode_AsUTF8(prefix) : nullptr;
  if (!text) py.PyErr_Clear();
  return text ? text : "";
}

}  // namespace

bool start_interpreter(const std::string& python, const std::string& origin, std::string& why) {
  auto fail = [&](const std::string& text) {
    why = origin + python + ": " + text;
    return false;
  };
  Interpreter interpreter;
  std::string problem;
  if (!ask_interpreter(python, interpreter, problem)) return fail(problem);

  // One process embeds one libpython: two would share symbol names and clash.
  std::string loaded = libpython_loaded_already();
  if (!loaded.empty() && real_path(loaded) != real_path(interpreter.library))
    return fail("Python " + interpreter.version + " (" + interpreter.library + ") cannot start: " + loaded +
                " is running in this process already; give both Python layers the same python");
  // RTLD_GLOBAL: Python's extension modules (_ctypes, the bindings) find the interpreter's
  // symbols in the global scope; they link no libpython of their own.
  void* library = dlopen(interpreter.library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!library) return fail("cannot load its libpython: " + std::string(dlerror()));
  if (!load_api(library, interpreter.library, problem)) return fail(problem);

  if (py.Py_IsInitialized()) {  // the other Python adapter started it: the same venv?
    Gil gil;
    std::string prefix = running_prefix();
    if (real_path(prefix) == real_path(interpreter.prefix)) return true;
    return fail("its sys.prefix is " + interpreter.prefix + ", but the Python running in this process already has " +
                prefix + "; give both Python layers the same python");
  }
  // The program name decides sys.prefix and sys.path, a venv's pyvenv.cfg included: start
  // as sys.executable would. Python keeps the string for the life of the process.
  wchar_t* program = py.Py_DecodeLocale(interpreter.executable.c_str(), nullptr);
  if (!program) return fail("cannot decode its sys.executable " + interpreter.executable);
  py.Py_SetProgramName(program);
  py.Py_InitializeEx(0);  // 0: no signal handlers; hostcb's SIGINT handling stays hostcb's
  py.PyEval_SaveThread();  // release the GIL: from now on every user takes it when needed
  return true;
}

std::string take_error() {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  py.PyErr_Fetch(&type, &value, &traceback);
  std::string text = "unknown Python error";
  if (value) {
    if (PyObject* s = py.PyObject_Str(value)) {
      if (const char* c = py.PyUnicode_AsUTF8(s)) text = c;
      py.Py_DecRef(s);
    }
  }
  if (type) {
    if (PyObject* n = py.PyObject_GetAttrString(type, "__name__")) {
      if (const char* c = py.PyUnicode_AsUTF8(n)) text = std::string(c) + ": " + text;
      py.Py_DecRef(n);
    }
  }
  py.Py_DecRef(type);
  py.Py_DecRef(value);
  py.Py_DecRef(traceback);
  py.PyErr_Clear();
  for (char& c : text)
    if (c == '\n') c = ' ';  // hostcb reports it as one line
  return text;
}

void collect_garbage() {
  static PyObject* collect = [] {
    PyObject* gc = py.PyImport_ImportModule("gc");
    PyObject* function = gc ? py.PyObject_GetAttrString(gc, "collect") : nullptr;
    py.Py_DecRef(gc);
    return function;  // kept for the life of the process
  }();
  PyObject* result = collect ? py.PyObject_CallNoArgs(collect) : nullptr;
  if (!result) py.PyErr_Clear();
  py.Py_DecRef(result);
}

bool put_first_on_sys_path(const std::string& folder, std::string& why) {
  PyObject* path = py.PySys_GetObject("path");  // borrowed
  PyObject* entry = py.PyUnicode_FromString(folder.c_str());
  bool ok = path && entry && py.PyList_Insert(path, 0, entry) == 0;
  py.Py_DecRef(entry);
  if (!ok) why = "cannot put " + folder + " on sys.path: " + take_error();
  return ok;
}

bool is_a(PyObject* value, PyObject* type) {
  int result = value ? py.PyObject_IsInstance(value, type) : 0;
  if (result < 0) py.PyErr_Clear();
  return result == 1;
}

std::string this_library_folder() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&this_library_folder), &info) || !info.dli_fname) return ".";
  std::string path = info.dli_fname;
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace hostcb_python
