#include "cuda/adapter_loader.hpp"

#include <dlfcn.h>

#include <cstddef>
#include <memory>
#include <mutex>

#include "model/axes.hpp"
#include "cuda/cuda_check.hpp"
#include "model/errors.hpp"
#include "cuda/forwarding.hpp"
#include "hostcb/adapter.h"

namespace hostcb {

namespace {

std::mutex g_mutex;
std::vector<AdapterInfo> g_loaded;
std::vector<void (*)()> g_teardowns;

// The byte count of `struct hostcb_adapter` up to and including `member`.
#define HOSTCB_SIZE_THROUGH(member) (offsetof(hostcb_adapter, member) + sizeof(hostcb_adapter::member))

// A forwarding layer made of an adapter's function table.
class AdapterForwarder final : public Forwarder {
 public:
  AdapterForwarder(const hostcb_adapter& table, std::string name, std::string describe)
      : table_(table), name_(std::move(name)), describe_(std::move(describe)) {}
  const char* name() const override { return name_.c_str(); }
  std::string describe() const override { return describe_; }
  bool has_host_nodes() const override { return table_.add_host_node != nullptr; }

  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    check(api, table_.launch_host_func(stream, fn, user_data), "launch_host_func");
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    if (!table_.add_host_node) throw SkipScenario(name_ + " has no add_host_node");
    void* node = nullptr;
    check(api, table_.add_host_node(graph, reinterpret_cast<void* const*>(deps.data()), deps.size(), fn, user_data, &node),
          "add_host_node");
    return static_cast<cudaGraphNode_t>(node);
  }

 private:
  // A failed adapter call is a CUDA error like any other: the call, the code's name,
  // and what the adapter itself said.
  void check(const GraphApi& api, int code, const char* call) const {
    if (code == 0) return;
    std::string name = api.error_name(code);
    if (table_.last_error)
      if (const char* said = table_.last_error()) name += str(" [", name_, ": ", said, "]");
    throw CudaError(str("adapter ", name_, ": ", call, "(...)"), code, name, HOSTCB_HERE);
  }

  hostcb_adapter table_;  // a copy: the plugin's struct may be smaller than ours
  std::string name_;
  std::string describe_;
};

}  // namespace

AdapterInfo load_adapter(const std::string& spec) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::size_t at = spec.find('@');
  std::string path = spec.substr(0, at);
  std::string options = at == std::string::npos ? "" : spec.substr(at + 1);
  auto fail = [&](const std::string& why) { return UsageError(str("adapter '", path, "': ", why)); };

  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    throw fail(why ? why : "cannot be loaded");
  }
  // Plugins stay loaded for the life of the process: CUDA may call into them until then.
  auto entry = reinterpret_cast<const hostcb_adapter* (*)()>(dlsym(library, "hostcb_adapter_v1"));
  if (!entry) throw fail("exports no hostcb_adapter_v1()");
  const hostcb_adapter* table = entry();
  if (!table) throw fail("hostcb_adapter_v1() returned NULL");
  if (table->abi_version != HOSTCB_ADAPTER_ABI_VERSION)
    throw fail(str("built for adapter ABI version ", table->abi_version, "; this hostcb speaks ",
                   HOSTCB_ADAPTER_ABI_VERSION));
  if (table->struct_size < HOSTCB_SIZE_THROUGH(describe))
    throw fail(str("its struct hostcb_adapter is ", table->struct_size, " bytes; version 1 has ",
                   HOSTCB_SIZE_THROUGH(describe)));
  if (!table->launch_host_func) throw fail("has no launch_host_func (required)");
  if (table->init && table->init(at == std::string::npos ? nullptr : options.c_str()) != 0) {
    const char* said = table->last_error ? table->last_error() : nullptr;
    throw fail(str("init refused", said ? std::string(": ") + said : std::string()));
  }
  std::string name = table->name ? table->name : "";
  if (!is_valid_name(name) || name.size() > 40)
    throw fail(str("name '", name, "' is not 1 to 40 of letters, digits, '_' and '.'"));

  hostcb_adapter copy{};
  copy = *table;  // struct_size >= ours for version 1: the whole struct is there
  AdapterInfo info{name, path, table->describe && table->describe() ? table->describe() : ""};
  try {
    register_forwarder(std::make_unique<AdapterForwarder>(copy, name, info.describe));
  } catch (const std::invalid_argument& e) {
    throw fail(e.what());
  }
  g_loaded.push_back(info);
  if (table->teardown) g_teardowns.push_back(table->teardown);
  return info;
}

void teardown_adapters() {
  std::lock_guard<std::mutex> lock(g_mutex);
  while (!g_teardowns.empty()) {
    g_teardowns.back()();
    g_teardowns.pop_back();
  }
}

std::vector<AdapterInfo> loaded_adapters() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_loaded;
}

}  // namespace hostcb
