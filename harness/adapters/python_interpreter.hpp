// Which CPython to embed: asked of the interpreter itself. The Python adapters link no
// libpython; given a python3 (python=, HOSTCB_PYTHON, or python3 on PATH) they run it once
// with a short query and load the shared libpython it names (python_embed.cpp). The answer
// also says which sys.prefix the interpreter runs with (its venv), so the embedded one can
// be started as that interpreter would start.
#pragma once

#include <string>

namespace hostcb_python {

struct Interpreter {
  std::string version;     // "3.12.3"
  std::string executable;  // sys.executable: a venv's own python3 for a venv
  std::string prefix;      // sys.prefix
  std::string library;     // the shared libpython it runs on; "" where it has none
};

// The oldest CPython the adapters drive: the stable-ABI functions they call are all there.
constexpr int kOldestMinor = 9;  // 3.9

// Runs `python -c QUERY` (stdin from /dev/null, at most 30 s) and reads its answer. False,
// with one line in `why` (the caller names the interpreter), when `python` cannot be run, is
// no CPython, is older than 3.9 or has no shared libpython.
bool ask_interpreter(const std::string& python, Interpreter& out, std::string& why);

// The first `program` on PATH, or "".
std::string find_on_path(const std::string& program);

}  // namespace hostcb_python
