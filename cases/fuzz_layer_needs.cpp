#include "cases/fuzz_layer_needs.hpp"

#include <algorithm>

namespace hostcb::cases {

LayerNeeds layer_needs(const fuzz::Program& program) {
  using fuzz::ItemKind;
  using fuzz::OpKind;
  LayerNeeds needs;
  auto need = [](std::vector<LayerOp>& ops, LayerOp op) {
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
  };
  for (const auto& op : program.ops) {
    const bool own = op.kind == OpKind::capture && op.by_layer;
    std::vector<LayerOp>& here = own ? needs.in_own_capture : needs.elsewhere;
    if (own) need(here, LayerOp::capture);
    for (const auto& item : op.items) {
      if (item.kind != ItemKind::host) continue;
      need(here, op.kind == OpKind::capture ? LayerOp::launch_host_func : LayerOp::add_host_node);
      if (own && item.stream > 0) need(here, LayerOp::launch_on_forked_stream);  // a side stream of its capture
    }
    if (op.kind == OpKind::graph_set_host) need(here, LayerOp::graph_set_host_node);
    if (op.kind == OpKind::exec_set_host) need(here, LayerOp::exec_set_host_node);
    if (op.kind == OpKind::stream_callback) need(here, LayerOp::add_stream_callback);
  }
  return needs;
}

}  // namespace hostcb::cases
