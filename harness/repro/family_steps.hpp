// What a scenario does, as reproducer steps: one function per family that has them,
// mirroring the family's body in cases/ (the same calls through the layer, the same
// counts checked after each synchronize). tests/e2e_repro.sh runs each against the CPU
// stand-ins of CUDA and of a layer, where the scenario fails and where it passes.
#pragma once
#include <string>
#include <vector>

#include "model/axes.hpp"
#include "repro/writer.hpp"

namespace hostcb::repro {

// The families (and their cases) that have steps, for messages: "replay, stream_callback, ...".
std::string families_with_steps();

// Whether write_steps has steps for this scenario (failure lines offer `hostcb repro` then).
bool has_steps(const std::string& family, const Params& params);

// Tells `out` the steps of scenario `family` with `params`, from begin() to finish()'s
// last check. Throws UsageError when the family, or this combination of its axes, has no
// steps yet, naming what has.
void write_steps(const std::string& family, const Params& params, const Header& header, Writer& out);

}  // namespace hostcb::repro
