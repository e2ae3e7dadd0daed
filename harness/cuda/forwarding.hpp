// Forwarding layers: how a scenario's host function reaches CUDA.
//
// Scenarios never call cudaLaunchHostFunc or add host nodes themselves; they go through
// a Forwarder, named by the `forward` axis. Trampolines and other people's wrappers plug
// in here without touching the cases.
//   direct       the CUDA API itself: (fn, userData) go to CUDA untouched
//   oneshot      the bug pattern: a trampoline whose (fn, userData) record is freed after
//                its first call. Fine for stream work; a graph's second launch runs through
//                freed memory
//   graph_owned  a trampoline whose record lives as long as the graph: tied to it with a
//                CUDA user object, freed once, after the last exec is destroyed and its
//                launches have finished
// and any adapter loaded with --adapter (adapter_loader.hpp), registered before the
// families are, so their `forward` axes list it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda/graph_api.hpp"

namespace hostcb {

class Forwarder {
 public:
  virtual ~Forwarder() = default;
  virtual const char* name() const = 0;
  virtual void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) = 0;
  virtual cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph,
                                        const std::vector<cudaGraphNode_t>& deps, HostFn fn, void* user_data) = 0;
  // Records the layer has made and not yet freed (0 for layers that keep none).
  virtual std::int64_t live_records() const { return 0; }
  // Whether add_host_node exists; without it, scenarios that need it are excluded.
  virtual bool has_host_nodes() const { return true; }
  // What the layer drives, with versions, for reports; empty for built-in layers.
  virtual std::string describe() const { return ""; }
};

// The forwarding layer by name; throws std::invalid_argument for an unknown one.
Forwarder& forwarder(const std::string& name);
// Every layer's name, in order (built-in ones first): the values of the `forward` axis.
std::vector<std::string> forwarder_names();
// Adds a layer (an adapter); throws std::invalid_argument if its name is taken.
void register_forwarder(std::unique_ptr<Forwarder> layer);
// The layers added with register_forwarder, in order.
std::vector<const Forwarder*> registered_adapters();

}  // namespace hostcb
