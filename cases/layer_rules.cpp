#include "cases/layer_rules.hpp"

#include <algorithm>

namespace hostcb::cases {

std::vector<LayerOp> build_ops(const std::string& build) {
  if (build == "node") return {LayerOp::add_host_node};
  if (build == "capture_by_layer") return {LayerOp::capture, LayerOp::launch_host_func};
  return {LayerOp::launch_host_func};
}

std::optional<std::string> layer_lacks(const Params& p, const std::vector<LayerOp>& ops) {
  if (!p.has("forward")) return std::nullopt;
  const std::string& layer = p.get("forward");
  std::vector<LayerOp> needed = ops;
  if (p.has("build")) {
    std::vector<LayerOp> by_build = build_ops(p.get("build"));
    needed.insert(needed.begin(), by_build.begin(), by_build.end());
  }
  if (auto missing = missing_operation(layer, needed)) return missing;
  // A host-function launch anywhere but inside the layer's own capture.
  const bool own_capture = p.has("build") && p.get("build") == "capture_by_layer";
  const bool launches = std::find(needed.begin(), needed.end(), LayerOp::launch_host_func) != needed.end();
  if (launches && !own_capture && forwarder(layer).launches_only_in_own_capture())
    return "the " + layer + " layer launches host functions only in a capture it began (build=capture_by_layer)";
  return std::nullopt;
}

std::optional<ExpectedVerdict> oneshot_control(const Params& p, bool record_called_again) {
  if (p.has("forward") && p.get("forward") == "oneshot" && record_called_again)
    return ExpectedVerdict{{Status::failed, Status::error}, ""};
  return std::nullopt;
}

}  // namespace hostcb::cases
