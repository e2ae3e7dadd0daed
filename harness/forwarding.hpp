// Forwarding layers: how a scenario's host function reaches CUDA.
//
// Scenarios never call cudaLaunchHostFunc or add host nodes themselves; they go through
// a Forwarder. Today there is `direct` (the CUDA API itself). Trampolines and other
// people's wrappers plug in here without touching the cases.
#pragma once
#include <string>
#include <vector>

#include "graph_api.hpp"

namespace hostcb {

class Forwarder {
 public:
  virtual ~Forwarder() = default;
  virtual const char* name() const = 0;
  virtual void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) = 0;
  virtual cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph,
                                        const std::vector<cudaGraphNode_t>& deps, HostFn fn, void* user_data) = 0;
};

// The forwarding layer by name; throws std::invalid_argument for an unknown one.
Forwarder& forwarder(const std::string& name);
std::vector<std::string> forwarder_names();

}  // namespace hostcb
