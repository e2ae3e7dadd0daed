// The embedded-Python adapter: runs hostcb's scenarios through a Python layer, one
// module per adapter instance, that implements the module protocol (docs/adapters.md):
//
//   launch_host_func(stream, fn, user_data) -> int        0 or a CUDA error code
//   add_host_node(graph, deps, fn, user_data) -> (int, node)
//   add_stream_callback(stream, callback, user_data) -> int
//   begin_capture(stream, mode) -> int;  end_capture(stream) -> (int, graph)
//   graph_set_host_node(graph, node, fn, user_data) -> int
//   exec_set_host_node(exec, node, fn, user_data) -> int
//   versions() -> dict[str, str];  describe() -> str;  NAME: str
//
// Handles and pointers travel as ints. Each function the module defines becomes the ABI
// member of the same name; one it lacks leaves the member NULL, and hostcb lists the
// scenarios that need it as excluded. A module defines at least one of launch_host_func,
// add_host_node and add_stream_callback.
//
// Built twice from this file, so that two Python layers can be loaded at once (a plugin
// has one state per process):
//   hostcb_python_runtime  default module hostcb_layers.cuda_bindings_runtime
//   hostcb_python_driver   default module hostcb_layers.cuda_bindings_driver
// hostcb_layers/ (harness/adapters/python/) is found in python/ beside this library.
//
// Options (--adapter PATH@key=value,key=value):
//   module=NAME                the layer module, imported from sys.path (python/ beside
//                              this library comes first, then PYTHONPATH and the rest)
//   callable=module:function   the older form: a launch(stream, fn, user_data) -> int,
//                              driven as launch_host_func only
//   name=NAME                  the forward-axis name (default: the module's NAME, else the
//                              last part of its dotted name; cuda_bindings_<build> for callable=)
//   python=PATH                the python3 to embed: its shared libpython is loaded at init
//                              (nothing is linked at build time, so any CPython 3.9+ will
//                              do) and its environment (venv, site-packages) applies;
//                              default: HOSTCB_PYTHON, else `python3` on PATH
//
// The GIL (python_embed.hpp): released once the interpreter is up; every call below holds
// it for its length only, so CUDA's callback thread can take it whenever a layer's
// trampoline wants it.
//
// References: each operation builds its arguments, calls the module, reads the result and
// drops all of them, then runs gc.collect() before it returns, GIL held throughout. What
// CUDA calls later is the layer's to keep alive: a layer that leaves it to the caller's
// objects, or to a reference cycle nobody holds, loses it here, before CUDA calls it.
#include <hostcb/adapter.h>

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <sys/stat.h>

#include "python_embed.hpp"
#include "python_interpreter.hpp"

namespace {

using hostcb_python::Gil;
using hostcb_python::is_a;
using hostcb_python::py;
using hostcb_python::take_error;

constexpr int kUnknownError = 999;  // cudaErrorUnknown, CUDA_ERROR_UNKNOWN: the layer raised

// The module's functions hostcb calls, by their protocol names.
enum Member {
  kLaunchHostFunc,
  kAddHostNode,
  kAddStreamCallback,
  kBeginCapture,
  kEndCapture,
  kGraphSetHostNode,
  kExecSetHostNode,
  kVersions,
  kDescribe,
  kMemberCount
};
constexpr const char* kMemberNames[kMemberCount] = {
    "launch_host_func",   "add_host_node",      "add_stream_callback", "begin_capture", "end_capture",
    "graph_set_host_node", "exec_set_host_node", "versions",            "describe"};

PyObject* g_functions[kMemberCount] = {};  // strong references, kept for the life of the process
std::string g_name = std::string("cuda_bindings_") + HOSTCB_PYTHON_TARGET;
std::string g_describe;
std::string g_versions;  // "name=version\n" lines
thread_local std::string t_last_error;

// ---- calling the module (GIL held) ----

template <typename T>
unsigned long long address(T* pointer) {
  return static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(reinterpret_cast<const void*>(pointer)));
}

// Calls `member` with the argument tuple Py_BuildValue makes of `format`: the result (a
// new reference), or NULL with the error taken into t_last_error.
PyObject* call(Member member, const char* format, ...) {
  std::va_list items;
  va_start(items, format);
  PyObject* arguments = py.Py_VaBuildValue(format, items);
  va_end(items);
  PyObject* result = arguments ? py.PyObject_CallObject(g_functions[member], arguments) : nullptr;
  py.Py_DecRef(arguments);
  if (!result) t_last_error = take_error();
  return result;
}

// The code an int result carries; kUnknownError for an exception or another type.
int code_from(PyObject* value, Member member) {
  long code = py.PyLong_AsLong(value);
  if (code == -1 && py.PyErr_Occurred()) {
    t_last_error = std::string(kMemberNames[member]) + "() did not return an int code: " + take_error();
    return kUnknownError;
  }
  if (code != 0) t_last_error = "the Python layer returned " + std::to_string(code);
  return static_cast<int>(code);
}

// For the functions returning an int code. Drops `result`.
int code_of(PyObject* result, Member member) {
  if (!result) return kUnknownError;
  int code = code_from(result, member);
  py.Py_DecRef(result);
  return code;
}

// For the functions returning (code, handle): the handle goes to *handle. Drops `result`.
int code_and_handle_of(PyObject* result, Member member, void** handle) {
  if (!result) return kUnknownError;
  int code = kUnknownError;
  if (!is_a(result, py.PyTuple_Type) || py.PyTuple_Size(result) != 2) {
    t_last_error = std::string(kMemberNames[member]) + "() did not return a tuple (code, handle)";
  } else {
    code = code_from(py.PyTuple_GetItem(result, 0), member);
    unsigned long long value = py.PyLong_AsUnsignedLongLong(py.PyTuple_GetItem(result, 1));
    if (py.PyErr_Occurred()) {
      t_last_error = std::string(kMemberNames[member]) + "()'s handle is not an int: " + take_error();
      code = kUnknownError;
    } else {
      *handle = reinterpret_cast<void*>(static_cast<std::uintptr_t>(value));
    }
  }
  py.Py_DecRef(result);
  return code;
}

// Every operation returns through here, its own references already dropped.
int collected(int code) {
  hostcb_python::collect_garbage();
  return code;
}

// ---- the ABI's operations ----

int launch_host_func(void* stream, hostcb_host_fn fn, void* user_data) {
  Gil gil;
  return collected(
      code_of(call(kLaunchHostFunc, "(KKK)", address(stream), address(fn), address(user_data)), kLaunchHostFunc));
}

int add_host_node(void* graph, void* const* deps, size_t num_deps, hostcb_host_fn fn, void* user_data,
                  void** node_out) {
  Gil gil;
  PyObject* list = py.PyList_New(static_cast<Py_ssize_t>(num_deps));
  for (size_t i = 0; list && i < num_deps; ++i) {
    PyObject* item = py.PyLong_FromUnsignedLongLong(address(deps[i]));
    if (!item) py.Py_DecRef(list), list = nullptr;
    else py.PyList_SetItem(list, static_cast<Py_ssize_t>(i), item);
  }
  if (!list) {
    t_last_error = take_error();
    return collected(kUnknownError);
  }
  PyObject* result = call(kAddHostNode, "(KNKK)", address(graph), list, address(fn), address(user_data));  // N: steals
  return collected(code_and_handle_of(result, kAddHostNode, node_out));
}

int add_stream_callback(void* stream, hostcb_stream_callback callback, void* user_data) {
  Gil gil;
  return collected(code_of(
      call(kAddStreamCallback, "(KKK)", address(stream), address(callback), address(user_data)), kAddStreamCallback));
}

int begin_capture(void* stream, int mode) {
  Gil gil;
  return collected(code_of(call(kBeginCapture, "(Ki)", address(stream), mode), kBeginCapture));
}

int end_capture(void* stream, void** graph_out) {
  Gil gil;
  return collected(code_and_handle_of(call(kEndCapture, "(K)", address(stream)), kEndCapture, graph_out));
}

int graph_set_host_node(void* graph, void* node, hostcb_host_fn fn, void* user_data) {
  Gil gil;
  return collected(code_of(call(kGraphSetHostNode, "(KKKK)", address(graph), address(node), address(fn),
                                address(user_data)),
                           kGraphSetHostNode));
}

int exec_set_host_node(void* exec, void* node, hostcb_host_fn fn, void* user_data) {
  Gil gil;
  return collected(code_of(
      call(kExecSetHostNode, "(KKKK)", address(exec), address(node), address(fn), address(user_data)),
      kExecSetHostNode));
}

const char* last_error() { return t_last_error.empty() ? nullptr : t_last_error.c_str(); }
const char* describe() { return g_describe.c_str(); }
const char* versions() { return g_versions.c_str(); }
int init(const char* options);

// The operations are filled in by init from what the module defines (hostcb reads the
// table after init).
hostcb_adapter g_adapter = {
    HOSTCB_ADAPTER_ABI_VERSION, sizeof(hostcb_adapter), nullptr, init,
    nullptr,  // teardown: the interpreter stays up (callbacks may still come)
    nullptr, nullptr, nullptr,  // launch_host_func, add_host_node, add_stream_callback
    last_error, describe,
    nullptr, nullptr,  // begin_capture, end_capture
    nullptr, nullptr,  // graph_set_host_node, exec_set_host_node
    nullptr,           // versions
    HOSTCB_LAUNCH_ANYWHERE,  // launch_scope: LAUNCH_SCOPE in the module may narrow it
};

// ---- loading the module (GIL held) ----

// hostcb_layers/ and its helpers: python/ beside this library (a link to the source
// folder in a build tree, a copy when installed).
std::string layers_folder() { return hostcb_python::this_library_folder() + "/python"; }

// str(value) of a Python str; false (error taken) otherwise. Drops `value`.
bool text_of(PyObject* value, const std::string& what, std::string& out) {
  bool ok = is_a(value, py.PyUnicode_Type);
  if (ok) out = py.PyUnicode_AsUTF8(value);
  else t_last_error = what + (value ? " is not a str" : ": " + take_error());
  py.Py_DecRef(value);
  return ok;
}

// A versions() dict as "name=version\n" lines. Drops `dict`.
bool version_lines(PyObject* dict, std::string& out) {
  if (!is_a(dict, py.PyDict_Type)) {
    t_last_error = dict ? "versions() did not return a dict" : "versions() raised " + take_error();
    py.Py_DecRef(dict);
    return false;
  }
  PyObject *key = nullptr, *value = nullptr;
  Py_ssize_t position = 0;
  out.clear();
  while (py.PyDict_Next(dict, &position, &key, &value)) {
    if (!is_a(key, py.PyUnicode_Type) || !is_a(value, py.PyUnicode_Type)) continue;
    out += std::string(py.PyUnicode_AsUTF8(key)) + "=" + py.PyUnicode_AsUTF8(value) + "\n";
  }
  py.Py_DecRef(dict);
  return true;
}

// What the generic helpers (hostcb_layers._environment) say about a layer named `what`,
// for a module without describe() and for callable=.
void describe_generically(const std::string& what) {
  g_describe = "Python layer " + what + " (versions unknown)";
  PyObject* helpers = py.PyImport_ImportModule("hostcb_layers._environment");
  const char* packages[] = {"cuda-bindings", "cuda-python", "cupy-cuda13x", "cupy-cuda12x", "cupy"};
  PyObject* text = helpers ? py.PyObject_CallMethod(helpers, "describe", "ssssss", ("via " + what).c_str(), packages[0],
                                                 packages[1], packages[2], packages[3], packages[4])
                           : nullptr;
  if (is_a(text, py.PyUnicode_Type)) g_describe = py.PyUnicode_AsUTF8(text);
  if (!text) py.PyErr_Clear();
  py.Py_DecRef(text);
  py.Py_DecRef(helpers);
}

bool load_module(const std::string& name) {
  PyObject* module = py.PyImport_ImportModule(name.c_str());
  if (!module) {
    t_last_error = take_error();
    struct stat st {};
    if (name.rfind("hostcb_layers.", 0) == 0 && ::stat((layers_folder() + "/hostcb_layers").c_str(), &st) != 0)
      t_last_error += " (no hostcb_layers/ in " + layers_folder() + ")";
    return false;
  }
  bool ok = true;
  for (int m = 0; ok && m < kMemberCount; ++m) {
    if (!py.PyObject_HasAttrString(module, kMemberNames[m])) continue;
    g_functions[m] = py.PyObject_GetAttrString(module, kMemberNames[m]);
    if (!g_functions[m] || !py.PyCallable_Check(g_functions[m])) {
      t_last_error = name + "." + kMemberNames[m] + " is not a function";
      ok = false;
    }
  }
  if (ok && !g_functions[kLaunchHostFunc] && !g_functions[kAddHostNode] && !g_functions[kAddStreamCallback]) {
    t_last_error = name + " defines none of launch_host_func, add_host_node and add_stream_callback";
    ok = false;
  }
  if (ok && (g_functions[kBeginCapture] == nullptr) != (g_functions[kEndCapture] == nullptr)) {
    t_last_error = name + " defines one of begin_capture and end_capture; a layer has both or neither";
    ok = false;
  }
  if (ok && py.PyObject_HasAttrString(module, "NAME"))
    ok = text_of(py.PyObject_GetAttrString(module, "NAME"), name + ".NAME", g_name);
  else if (ok)
    g_name = name.substr(name.rfind('.') + 1);
  // LAUNCH_SCOPE = "own_capture": launch_host_func works only inside the module's capture;
  // "own_capture_stream": only there, on the stream begin_capture was given (adapter.h).
  g_adapter.launch_scope = HOSTCB_LAUNCH_ANYWHERE;
  if (ok && py.PyObject_HasAttrString(module, "LAUNCH_SCOPE")) {
    std::string scope;
    ok = text_of(py.PyObject_GetAttrString(module, "LAUNCH_SCOPE"), name + ".LAUNCH_SCOPE", scope);
    if (ok && scope != "anywhere" && scope != "own_capture" && scope != "own_capture_stream") {
      t_last_error = name + ".LAUNCH_SCOPE is '" + scope + "'; it is 'anywhere', 'own_capture' or 'own_capture_stream'";
      ok = false;
    }
    if (ok && scope == "own_capture") g_adapter.launch_scope = HOSTCB_LAUNCH_IN_OWN_CAPTURE;
    if (ok && scope == "own_capture_stream") g_adapter.launch_scope = HOSTCB_LAUNCH_ON_OWN_CAPTURE_STREAM;
  }
  py.Py_DecRef(module);
  if (!ok) return false;

  if (g_functions[kDescribe]) {
    if (!text_of(py.PyObject_CallNoArgs(g_functions[kDescribe]), name + ".describe()", g_describe)) return false;
  } else {
    describe_generically(name);
  }
  if (g_functions[kVersions] && !version_lines(py.PyObject_CallNoArgs(g_functions[kVersions]), g_versions)) return false;

  auto member = [](Member m, auto function) { return g_functions[m] ? function : nullptr; };
  g_adapter.launch_host_func = member(kLaunchHostFunc, &launch_host_func);
  g_adapter.add_host_node = member(kAddHostNode, &add_host_node);
  g_adapter.add_stream_callback = member(kAddStreamCallback, &add_stream_callback);
  g_adapter.begin_capture = member(kBeginCapture, &begin_capture);
  g_adapter.end_capture = member(kEndCapture, &end_capture);
  g_adapter.graph_set_host_node = member(kGraphSetHostNode, &graph_set_host_node);
  g_adapter.exec_set_host_node = member(kExecSetHostNode, &exec_set_host_node);
  g_adapter.versions = g_functions[kVersions] ? &versions : nullptr;
  return true;
}

// callable=module:function, as before the module protocol: launch_host_func only.
bool load_callable(const std::string& spec) {
  std::size_t colon = spec.find(':');
  if (colon == std::string::npos) {
    t_last_error = "callable= takes module:function; got '" + spec + "'";
    return false;
  }
  PyObject* module = py.PyImport_ImportModule(spec.substr(0, colon).c_str());
  if (!module) {
    t_last_error = take_error();
    return false;
  }
  std::string function = spec.substr(colon + 1);
  PyObject* launch = py.PyObject_GetAttrString(module, function.c_str());
  py.Py_DecRef(module);
  if (!launch || !py.PyCallable_Check(launch)) {
    t_last_error = launch ? function + " is not callable" : take_error();
    py.Py_DecRef(launch);
    return false;
  }
  g_functions[kLaunchHostFunc] = launch;
  g_adapter.launch_host_func = &launch_host_func;
  describe_generically(spec);
  return true;
}

int init(const char* options) {
  // The interpreter: python=, else HOSTCB_PYTHON, else python3 on PATH; `origin` names which.
  const char* from_environment = std::getenv("HOSTCB_PYTHON");
  std::string python = from_environment && *from_environment ? from_environment : "";
  std::string origin = python.empty() ? "" : "HOSTCB_PYTHON=";
  std::string module = std::string("hostcb_layers.cuda_bindings_") + HOSTCB_PYTHON_TARGET;
  std::string callable, name;
  bool module_given = false;
  std::set<std::string> given;  // hostcb's rule for options: each once, none empty
  const std::string all = options ? options : "";
  for (std::size_t start = 0; !all.empty() && start <= all.size();) {
    const std::size_t comma = std::min(all.find(',', start), all.size());
    const std::string item = all.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) {  // "a,,b", "a," or ",a": a KEY=VALUE left out, or a stray comma
      t_last_error = "an empty option in '" + all + "' (two commas, or a comma at an end): give each as KEY=VALUE";
      return 1;
    }
    std::size_t eq = item.find('=');
    std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key.empty()) {
      t_last_error = "option '" + item + "' has no name: give it as KEY=VALUE";
      return 1;
    }
    if (value.empty()) {
      t_last_error = "option '" + key + "' has an empty value; leave it out or give it one";
      return 1;
    }
    if (!given.insert(key).second) {
      t_last_error = "option '" + key + "' is given twice; give it once";
      return 1;
    }
    if (key == "module") module = value, module_given = true;
    else if (key == "callable") callable = value;
    else if (key == "name") name = value;
    else if (key == "python") python = value, origin = "python=";
    else {
      t_last_error = "unknown option '" + key + "' (module, callable, name, python)";
      return 1;
    }
  }
  if (module_given && !callable.empty()) {
    t_last_error = "module= and callable= name two layers; give one";
    return 1;
  }
  if (python.empty()) {
    python = hostcb_python::find_on_path("python3");
    origin = "python3 on PATH: ";
    if (python.empty()) {
      t_last_error = "no python3 on PATH (give python=PATH or set HOSTCB_PYTHON)";
      return 1;
    }
  }
  if (!hostcb_python::start_interpreter(python, origin, t_last_error)) return 1;
  bool ok;
  {
    Gil gil;
    ok = hostcb_python::put_first_on_sys_path(layers_folder(), t_last_error) &&
         (callable.empty() ? load_module(module) : load_callable(callable));
  }
  if (!name.empty()) g_name = name;
  g_adapter.name = g_name.c_str();  // hostcb reads the name after init
  return ok ? 0 : 1;
}

}  // namespace

extern "C" HOSTCB_ADAPTER_EXPORT const hostcb_adapter* hostcb_adapter_v1(void) {
  g_adapter.name = g_name.c_str();
  return &g_adapter;
}
