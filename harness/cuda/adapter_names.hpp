// Ready names: `--adapter LAYER:ENTRY[@OPTIONS]` loads the Python layer module hostcb
// ships as hostcb_layers/LAYER_ENTRY.py through the embedded-Python adapter found beside
// the binary, without a path: `--adapter cuda_bindings:runtime`.
#pragma once
#include <string>
#include <vector>

namespace hostcb {

// True when the part of `spec` before any '@' is NAME:NAME (letters, digits, '_') and
// not a file.
bool is_ready_name(const std::string& spec);

// "LIBRARY@module=hostcb_layers.LAYER_ENTRY[,OPTIONS]" for a ready name. The library is
// libhostcb_python_driver.so for an ENTRY ending in "driver", libhostcb_python_runtime.so
// otherwise, or the other one when that is among `loaded` (paths of adapters loaded in
// this process: a library has one state per process). Looked for in $HOSTCB_ADAPTER_DIR,
// then beside the binary (a build tree), then in ../LIBDIR/hostcb (an installation).
// Throws UsageError, one line: no Python adapter library found (and where it looked), no
// such module (and the ones there are), both libraries in use.
std::string resolve_ready_name(const std::string& spec, const std::vector<std::string>& loaded);
// The folder holding the Python adapter libraries (python/hostcb_layers/ is beside them),
// looked for as resolve_ready_name does; throws UsageError naming `asked_for` and where
// it looked when there is none.
std::string python_adapters_folder(const std::string& asked_for);

}  // namespace hostcb
