// Forwarding layers: how a scenario's host functions reach CUDA.
//
// Scenarios never call cudaLaunchHostFunc or add host nodes themselves; they go through
// a Forwarder, named by the `forward` axis, for every operation a layer may own: the
// enqueue, the host node, the stream callback, the capture, and the updates of a host
// node in a graph or an exec. Trampolines and other people's wrappers plug in here
// without touching the cases. The built-in layers (builtin_layers.cpp):
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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuda/graph_api.hpp"

namespace hostcb {

// The operations a layer may own. Built-in layers have them all; an adapter has those
// its plugin gives (include/hostcb/adapter.h), and a scenario that needs one it lacks is
// listed as excluded, naming it.
enum class LayerOp {
  launch_host_func,
  add_host_node,
  add_stream_callback,
  capture,  // begin_capture and end_capture
  graph_set_host_node,
  exec_set_host_node,
  // launch_host_func inside the layer's own capture, on a side stream that joined it
  // through an event rather than the stream begin_capture was given
  launch_on_forked_stream,
};
// The operation's name as the adapter ABI spells it ("begin_capture/end_capture" for capture).
const char* layer_op_name(LayerOp op);

class Forwarder {
 public:
  virtual ~Forwarder() = default;
  virtual const char* name() const = 0;
  virtual bool has(LayerOp) const { return true; }
  // A known-bad layer (control_layers*.cpp): it joins only the `forward` axes of the
  // families that name it where a check is meant to catch it (cases/layer_rules.hpp),
  // so every other matrix stays as it is.
  virtual bool control_only() const { return false; }

  virtual void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) = 0;
  virtual cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph,
                                        const std::vector<cudaGraphNode_t>& deps, HostFn fn, void* user_data) = 0;
  // A cudaStreamAddCallback-style callback: fn(user_data, status), called once.
  virtual void add_stream_callback(const GraphApi& api, cudaStream_t stream, StatusFn fn, void* user_data) = 0;
  // A capture begun and ended by the layer's own capture API.
  virtual void begin_capture(const GraphApi& api, cudaStream_t stream, CaptureMode mode) = 0;
  virtual Graph end_capture(const GraphApi& api, cudaStream_t stream) = 0;
  // The host node `node` of `graph` calls fn(user_data) from now on; execs made before keep theirs.
  virtual void graph_set_host_node(const GraphApi& api, cudaGraph_t graph, cudaGraphNode_t node, HostFn fn,
                                   void* user_data) = 0;
  // `exec`'s instance of `node` calls fn(user_data) from its next launch.
  virtual void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                                  void* user_data) = 0;

  // Whether launch_host_func works only inside a capture the layer began itself.
  virtual bool launches_only_in_own_capture() const { return false; }
  // Records the layer has made and not yet freed (0 for layers that keep none).
  virtual std::int64_t live_records() const { return 0; }
  // What the layer drives, with versions, for reports; empty for built-in layers.
  virtual std::string describe() const { return ""; }
};

// Captures what `enqueue` puts on `stream` into a graph, the capture begun and ended by
// `layer`. As capture_graph: if `enqueue` throws, the capture is ended (by CUDA) and
// its graph discarded before the exception goes on.
template <class Enqueue>
Graph capture_graph_by_layer(Forwarder& layer, const GraphApi& api, cudaStream_t stream, CaptureMode mode,
                             Enqueue&& enqueue) {
  return capture_between(
      api, stream, [&] { layer.begin_capture(api, stream, mode); }, enqueue,
      [&] { return layer.end_capture(api, stream); });
}

// The forwarding layer by name; throws std::invalid_argument for an unknown one.
Forwarder& forwarder(const std::string& name);
// Every layer's name, in order (built-in ones first): the values of the `forward` axis.
// The known-bad layers are left out unless asked for (a family names those it wants).
std::vector<std::string> forwarder_names(bool with_control_only = false);
// Adds a layer (an adapter); throws std::invalid_argument if its name is taken.
void register_forwarder(std::unique_ptr<Forwarder> layer);
// The layers added with register_forwarder, in order.
std::vector<const Forwarder*> registered_adapters();

// Why a scenario needing `ops` cannot run through the layer named `layer` ("the X layer
// has no add_host_node"), or nullopt when it has them all.
std::optional<std::string> missing_operation(const std::string& layer, const std::vector<LayerOp>& ops);

// The built-in layers, in the order the axis lists them (builtin_layers.cpp), then the
// known-bad ones (control_layers*.cpp).
std::vector<std::unique_ptr<Forwarder>> make_builtin_layers();
std::vector<std::unique_ptr<Forwarder>> make_control_layers();

}  // namespace hostcb
