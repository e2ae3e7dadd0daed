// Loading adapters (include/hostcb/adapter.h) and running scenarios through them.
#pragma once
#include <string>
#include <vector>

#include "model/environment.hpp"

namespace hostcb {

// Loads `spec` ("PATH" or "PATH@OPTIONS"), checks it, runs its init and registers it as
// a forwarding layer. Throws UsageError with a one-line reason: file not loadable,
// symbol missing, another ABI version, a struct too small, a bad or taken name, no
// launch_host_func, init refused. Call before the families are registered.
AdapterInfo load_adapter(const std::string& spec);

// Every adapter loaded in this process, in load order.
std::vector<AdapterInfo> loaded_adapters();
// Calls each loaded adapter's teardown, once, in reverse load order.
void teardown_adapters();

}  // namespace hostcb
