// The registry of forwarding layers: the built-in ones, then the adapters in load order.
#include "cuda/forwarding.hpp"

#include <stdexcept>

namespace hostcb {

namespace {
struct Registry {
  std::vector<std::unique_ptr<Forwarder>> layers = all_builtin();
  std::size_t builtins = layers.size();
  static std::vector<std::unique_ptr<Forwarder>> all_builtin() {
    auto layers = make_builtin_layers();
    for (auto& control : make_control_layers()) layers.push_back(std::move(control));
    return layers;
  }
};
Registry& registry() {
  static Registry instance;
  return instance;
}
std::vector<std::unique_ptr<Forwarder>>& layers() { return registry().layers; }
}  // namespace

const char* layer_op_name(LayerOp op) {
  switch (op) {
    case LayerOp::launch_host_func: return "launch_host_func";
    case LayerOp::add_host_node: return "add_host_node";
    case LayerOp::add_stream_callback: return "add_stream_callback";
    case LayerOp::capture: return "begin_capture/end_capture";
    case LayerOp::graph_set_host_node: return "graph_set_host_node";
    case LayerOp::exec_set_host_node: return "exec_set_host_node";
    case LayerOp::launch_on_forked_stream: return "launch_host_func on a side stream forked into its own capture";
  }
  return "?";
}

Forwarder& forwarder(const std::string& name) {
  for (auto& layer : layers())
    if (name == layer->name()) return *layer;
  throw std::invalid_argument("unknown forwarding layer '" + name + "'");
}

std::vector<std::string> forwarder_names(bool with_control_only) {
  std::vector<std::string> names;
  for (auto& layer : layers())
    if (with_control_only || !layer->control_only()) names.push_back(layer->name());
  return names;
}

void register_forwarder(std::unique_ptr<Forwarder> layer) {
  for (auto& existing : layers())
    if (std::string(existing->name()) == layer->name())
      throw std::invalid_argument(std::string("a forwarding layer named '") + layer->name() + "' is already loaded");
  layers().push_back(std::move(layer));
}

std::vector<const Forwarder*> registered_adapters() {
  std::vector<const Forwarder*> out;
  for (std::size_t i = registry().builtins; i < layers().size(); ++i) out.push_back(layers()[i].get());
  return out;
}

std::optional<std::string> missing_operation(const std::string& layer, const std::vector<LayerOp>& ops) {
  const Forwarder& f = forwarder(layer);
  for (LayerOp op : ops)
    if (!f.has(op)) return "the " + layer + " layer has no " + layer_op_name(op);
  return std::nullopt;
}

}  // namespace hostcb
