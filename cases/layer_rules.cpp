#include "cases/layer_rules.hpp"

namespace hostcb::cases {

std::vector<LayerOp> build_ops(const std::string& build) {
  if (build == "node") return {LayerOp::add_host_node};
  if (build == "capture_by_layer") return {LayerOp::capture, LayerOp::launch_host_func};
  return {LayerOp::launch_host_func};
}

std::optional<std::string> layer_lacks(const Params& p, const std::vector<LayerOp>& ops) {
  if (!p.has("forward")) return std::nullopt;
  const std::string& layer = p.get("forward");
  if (p.has("build"))
    if (auto missing = missing_operation(layer, build_ops(p.get("build")))) return missing;
  return missing_operation(layer, ops);
}

std::optional<ExpectedVerdict> oneshot_control(const Params& p, bool record_called_again) {
  if (p.has("forward") && p.get("forward") == "oneshot" && record_called_again)
    return ExpectedVerdict{{Status::failed, Status::error}, ""};
  return std::nullopt;
}

}  // namespace hostcb::cases
