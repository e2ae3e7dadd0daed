// Loading adapters (include/hostcb/adapter.h) and running scenarios through them.
#pragma once
#include <string>
#include <vector>

#include "model/defaults.hpp"
#include "model/environment.hpp"

namespace hostcb {

// "PATH" or "PATH@OPTIONS": the path is the whole spec when that is a file, else the
// longest prefix before an '@' that is one (a folder may hold an '@'), else the part
// before the first '@' (the file is missing: loading says so).
struct AdapterSpec {
  std::string path, options;
  bool has_options = false;  // "x.so@" passes "" to init; "x.so" passes NULL
  std::string label;         // what messages call it: a ready name, else the path
};
AdapterSpec split_adapter_spec(const std::string& spec);

enum class AdapterCheck {
  in_child_first,  // load, check, init and tear down in a child process first: an init
                   // that crashes is refused with a line, not the death of hostcb
  in_process,      // no child (a worker: its supervisor has checked the adapter already)
};

// The check child's bounds. It runs in a process group of its own and dies with hostcb;
// an init that takes longer than `seconds` is refused (UsageError), and once `interrupt_fd`
// is readable (exec/interrupt.hpp's, handed in by the CLI) the child is killed and
// Interrupted is thrown. Either way nothing the child's init started is left running, and a
// process it started never holds hostcb: the child's exit is waited for, not its pipe's end.
struct AdapterCheckLimits {
  double seconds = kWorkerStartupSeconds;
  int interrupt_fd = -1;  // none
};

// Loads `spec` (PATH[@OPTIONS], or a ready name LAYER:ENTRY[@OPTIONS]: adapter_names.hpp), checks it, runs its init and registers it as a forwarding layer. Throws
// UsageError with a one-line reason: an empty path, file not loadable, symbol missing,
// another ABI version, a struct too small, a bad or taken name (checked before init), no
// operation at all (launch_host_func, add_host_node or add_stream_callback), init refused,
// init crashed or hung (in the child). Call before the families are registered.
AdapterInfo load_adapter(const std::string& spec, AdapterCheck check = AdapterCheck::in_child_first,
                         const AdapterCheckLimits& limits = {});

// Every adapter loaded in this process, in load order.
std::vector<AdapterInfo> loaded_adapters();
// Calls each loaded adapter's teardown, once, in reverse load order.
void teardown_adapters();

}  // namespace hostcb
