// The CPython C API the Python adapters use, as a table of function pointers filled in at
// run time from the libpython of the interpreter they are given (python_interpreter.hpp
// finds it). No Python header is included and no libpython is linked, so one build of the
// adapters drives any CPython from 3.9 on: every entry is a function (or type object) of
// the stable ABI, whose signature and behaviour every such version keeps. Macros such as
// Py_DECREF or PyTuple_GET_ITEM read object layouts and are never used: their function
// forms (Py_DecRef, PyTuple_GetItem) are.
#pragma once

#include <sys/types.h>

#include <cstdarg>
#include <cstddef>
#include <string>

struct PyObject;  // opaque: only ever handled through the functions below
using Py_ssize_t = ssize_t;

namespace hostcb_python {

// X(return type, name, parameter list): each function the adapters call.
#define HOSTCB_PYTHON_FUNCTIONS(X)                                                  \
  X(int, Py_IsInitialized, (void))                                                  \
  X(void, Py_InitializeEx, (int))                                                   \
  X(void, Py_SetProgramName, (const wchar_t*))                                      \
  X(wchar_t*, Py_DecodeLocale, (const char*, size_t*))                              \
  X(void*, PyEval_SaveThread, (void))                                               \
  X(int, PyGILState_Ensure, (void))                                                 \
  X(void, PyGILState_Release, (int))                                                \
  X(void, PyErr_Fetch, (PyObject**, PyObject**, PyObject**))                        \
  X(PyObject*, PyErr_Occurred, (void))                                              \
  X(void, PyErr_Clear, (void))                                                      \
  X(void, Py_DecRef, (PyObject*))                                                   \
  X(PyObject*, PyObject_Str, (PyObject*))                                           \
  X(PyObject*, PyObject_GetAttrString, (PyObject*, const char*))                    \
  X(int, PyObject_HasAttrString, (PyObject*, const char*))                          \
  X(int, PyObject_IsInstance, (PyObject*, PyObject*))                               \
  X(int, PyCallable_Check, (PyObject*))                                             \
  X(PyObject*, PyObject_CallObject, (PyObject*, PyObject*))                         \
  X(PyObject*, PyObject_CallNoArgs, (PyObject*))                                    \
  X(PyObject*, PyObject_CallMethod, (PyObject*, const char*, const char*, ...))     \
  X(PyObject*, Py_VaBuildValue, (const char*, va_list))                             \
  X(PyObject*, PyImport_ImportModule, (const char*))                                \
  X(PyObject*, PySys_GetObject, (const char*))                                      \
  X(PyObject*, PyUnicode_FromString, (const char*))                                 \
  X(const char*, PyUnicode_AsUTF8, (PyObject*))                                     \
  X(long, PyLong_AsLong, (PyObject*))                                               \
  X(unsigned long long, PyLong_AsUnsignedLongLong, (PyObject*))                     \
  X(PyObject*, PyLong_FromUnsignedLongLong, (unsigned long long))                   \
  X(PyObject*, PyList_New, (Py_ssize_t))                                            \
  X(int, PyList_SetItem, (PyObject*, Py_ssize_t, PyObject*))                        \
  X(int, PyList_Insert, (PyObject*, Py_ssize_t, PyObject*))                         \
  X(Py_ssize_t, PyTuple_Size, (PyObject*))                                          \
  X(PyObject*, PyTuple_GetItem, (PyObject*, Py_ssize_t))                            \
  X(int, PyDict_Next, (PyObject*, Py_ssize_t*, PyObject**, PyObject**))

// X(name): each type object the adapters test values against (PyObject_IsInstance).
#define HOSTCB_PYTHON_TYPES(X) X(PyTuple_Type) X(PyUnicode_Type) X(PyDict_Type)

struct Api {
#define HOSTCB_PYTHON_POINTER(result, name, parameters) result(*name) parameters = nullptr;
  HOSTCB_PYTHON_FUNCTIONS(HOSTCB_PYTHON_POINTER)
#undef HOSTCB_PYTHON_POINTER
#define HOSTCB_PYTHON_TYPE(name) PyObject* name = nullptr;
  HOSTCB_PYTHON_TYPES(HOSTCB_PYTHON_TYPE)
#undef HOSTCB_PYTHON_TYPE
};

// The table, empty until load_api succeeds. One per adapter library.
extern Api py;

// Fills `py` from `library` (a dlopen handle of libpython). False, with the first symbol
// it lacks in `why`, when the library is not a CPython this code can drive.
bool load_api(void* library, const std::string& library_path, std::string& why);

}  // namespace hostcb_python
