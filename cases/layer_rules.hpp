// What the `forward` axis means to a family: which layer operations a combination needs
// (a layer without one is listed as excluded, naming it), where the oneshot layer, whose
// record is freed after its first call, must be caught, and where each known-bad layer
// (harness/cuda/control_layers*.cpp) is a control.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cuda/forwarding.hpp"
#include "model/axes.hpp"
#include "model/family.hpp"
#include "model/status.hpp"

namespace hostcb::cases {

// The `forward` axis: every forwarding layer loaded, the built-in ones first, then the
// known-bad layers named (each must be registered; they join no family that does not name them).
Axis forward_axis(const std::vector<std::string>& known_bad = {});

// The operations building a graph by `build` takes: node -> add_host_node; capture_by_layer
// -> the layer's capture and launch_host_func; any other capture -> launch_host_func.
std::vector<LayerOp> build_ops(const std::string& build);

// Why `p`'s layer cannot run a combination needing `ops` (with the build's own), or nullopt.
// A combination that needs the layer's capture launches its host functions inside it.
std::optional<std::string> layer_lacks(const Params& p, const std::vector<LayerOp>& ops = {});

// A known-bad control when `p` goes through the oneshot layer and some record it made is
// called a second time: it has been freed by then, so the scenario must end failed or
// error (usually SIGSEGV). Nullopt otherwise: an ordinary scenario.
std::optional<ExpectedVerdict> oneshot_control(const Params& p, bool record_called_again);

// A known-bad layer in a family: where its bug is reached and a check is meant to catch
// it, and the verdict it must get there (a check's tag in `mentions`, such as "[stream]",
// says which check). Through it, every other combination is no scenario at all
// (Family::only_as_control): a known-bad layer runs only where it proves a check.
struct KnownBad {
  std::string layer;
  std::function<bool(const Params&)> caught_here;
  ExpectedVerdict verdict;
};

// Joins each known-bad layer to `family`'s `forward` axis, as a control where it is caught
// and no scenario elsewhere. Call it last: it wraps the family's control.
void add_known_bad(Family& family, std::vector<KnownBad> layers);

// The layer that frees at end_capture what it recorded during its capture: known-bad
// wherever the layer's own capture builds the graph (build=capture_by_layer), whose
// first launch calls freed records.
KnownBad frees_capture_at_end();

// The layer that shares one record among every graph a (function, userData) is built
// into, owned by the first: known-bad in lifetime's many_graphs cases, whose later graphs
// launch after the first is gone.
KnownBad first_graph_owns();

// The verdicts the known-bad layers get: failed, saying the tag of the check that must
// catch it; or failed or error, for a layer whose freed record crashes what calls it.
ExpectedVerdict caught_by(const std::string& check_tag);
ExpectedVerdict fails_or_crashes();

}  // namespace hostcb::cases
