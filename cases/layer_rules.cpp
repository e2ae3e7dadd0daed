#include "cases/layer_rules.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace hostcb::cases {

Axis forward_axis(const std::vector<std::string>& known_bad) {
  std::vector<std::string> names = forwarder_names();
  for (const auto& name : known_bad) {
    if (!forwarder(name).control_only()) throw std::logic_error(name + " is no known-bad layer");
    names.push_back(name);
  }
  return Axis::choice("forward", names).selecting();  // --axis forward=X: only what goes through X
}

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
  const bool own_capture = std::find(needed.begin(), needed.end(), LayerOp::capture) != needed.end();
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

void add_known_bad(Family& family, std::vector<KnownBad> layers) {
  auto forward = std::find_if(family.axes.begin(), family.axes.end(), [](const Axis& a) { return a.name == "forward"; });
  if (forward == family.axes.end()) throw std::logic_error(family.name + " has no forward axis");
  for (const auto& bad : layers) {
    if (!forwarder(bad.layer).control_only()) throw std::logic_error(bad.layer + " is no known-bad layer");
    forward->values.push_back(bad.layer);
  }
  auto known = std::make_shared<const std::vector<KnownBad>>(std::move(layers));
  auto find = [known](const Params& p) -> const KnownBad* {
    if (!p.has("forward")) return nullptr;
    for (const auto& bad : *known)
      if (bad.layer == p.get("forward")) return &bad;
    return nullptr;
  };
  family.only_as_control = [find](const Params& p) -> std::optional<std::string> {
    if (const KnownBad* bad = find(p)) return bad->layer + " is a known-bad layer, run only where a check is meant to catch it";
    return std::nullopt;
  };
  auto control = family.control;
  family.control = [control, find](const Params& p) -> std::optional<ExpectedVerdict> {
    if (const KnownBad* bad = find(p)) return bad->caught_here(p) ? std::optional<ExpectedVerdict>(bad->verdict) : std::nullopt;
    return control ? control(p) : std::nullopt;
  };
}

KnownBad frees_capture_at_end() {
  return {"frees_capture_at_end", [](const Params& p) { return p.has("build") && p.get("build") == "capture_by_layer"; },
          fails_or_crashes()};
}

KnownBad first_graph_owns() {
  return {"first_graph_owns", [](const Params& p) { return p.has("case") && p.get("case").rfind("many_graphs", 0) == 0; },
          fails_or_crashes()};
}

ExpectedVerdict caught_by(const std::string& check_tag) { return ExpectedVerdict{{Status::failed}, check_tag}; }

ExpectedVerdict fails_or_crashes() { return ExpectedVerdict{{Status::failed, Status::error}, ""}; }

}  // namespace hostcb::cases
