#include "python_api.hpp"

#include <dlfcn.h>

namespace hostcb_python {

Api py;

bool load_api(void* library, const std::string& library_path, std::string& why) {
  Api table;
  const char* missing = nullptr;
  auto resolve = [&](const char* name) {
    void* symbol = dlsym(library, name);
    if (!symbol && !missing) missing = name;
    return symbol;
  };
#define HOSTCB_PYTHON_RESOLVE(result, name, parameters) \
  table.name = reinterpret_cast<result(*) parameters>(resolve(#name));
  HOSTCB_PYTHON_FUNCTIONS(HOSTCB_PYTHON_RESOLVE)
#undef HOSTCB_PYTHON_RESOLVE
#define HOSTCB_PYTHON_RESOLVE_TYPE(name) table.name = static_cast<PyObject*>(resolve(#name));
  HOSTCB_PYTHON_TYPES(HOSTCB_PYTHON_RESOLVE_TYPE)
#undef HOSTCB_PYTHON_RESOLVE_TYPE
  if (missing) {
    why = library_path + " lacks " + missing + ": not a CPython 3.9 or newer that the Python adapters can drive";
    return false;
  }
  py = table;
  return true;
}

}  // namespace hostcb_python
