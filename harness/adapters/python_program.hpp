// The python3 a Python adapter is told to use (python=PATH, HOSTCB_PYTHON, or python3 on
// PATH), checked before the interpreter starts. An embedded Python given a path that is
// no Python of its own version (a typo in a venv's path, /bin/true, a venv of another
// Python) does not fail: it starts on whatever installation it finds, and the layer then
// fails later with an unrelated "No module named 'cuda'", or runs on the wrong packages.
#pragma once
#include <string>

namespace hostcb_python {

// True when `python` is an executable file that, run with -c, reports the Python version
// this adapter embeds (PY_MAJOR_VERSION.PY_MINOR_VERSION), within a few seconds. Else
// false and `why` says, in one line, which of those it is not.
bool check_python_program(const std::string& python, std::string& why);

}  // namespace hostcb_python
