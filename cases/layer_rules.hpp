// What the `forward` axis means to a family: which layer operations a combination needs
// (a layer without one is listed as excluded, naming it), and where the oneshot layer,
// whose record is freed after its first call, must be caught.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "cuda/forwarding.hpp"
#include "model/axes.hpp"
#include "model/status.hpp"

namespace hostcb::cases {

// The `forward` axis: every forwarding layer loaded, the built-in ones first.
inline Axis forward_axis() { return Axis::choice("forward", forwarder_names()); }

// The operations building a graph by `build` takes: node -> add_host_node; capture_by_layer
// -> the layer's capture and launch_host_func; any other capture -> launch_host_func.
std::vector<LayerOp> build_ops(const std::string& build);

// Why `p`'s layer cannot run a combination needing `ops` (with the build's own), or nullopt.
std::optional<std::string> layer_lacks(const Params& p, const std::vector<LayerOp>& ops = {});

// A known-bad control when `p` goes through the oneshot layer and some record it made is
// called a second time: it has been freed by then, so the scenario must end failed or
// error (usually SIGSEGV). Nullopt otherwise: an ordinary scenario.
std::optional<ExpectedVerdict> oneshot_control(const Params& p, bool record_called_again);

}  // namespace hostcb::cases
