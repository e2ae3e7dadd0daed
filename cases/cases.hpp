// The scenario families, one file each. A family file declares itself with
// HOSTCB_FAMILY(rank, make) beside its body; register_all_cases adds every declared family
// in rank order, which is the order of `hostcb list` and of every report. Adding a family is
// one new file here plus its line in cases/CMakeLists.txt.
#pragma once
#include <string>
#include <vector>

#include "model/family.hpp"
#include "model/registry.hpp"

namespace hostcb::cases {

// Families are made when registered, not at static initialisation: the `forward` axis
// takes its values from the layers loaded by then (--adapter).
using FamilyMaker = Family (*)();

struct FamilyDeclaration {
  FamilyDeclaration(int rank, FamilyMaker make);
};

void register_all_cases(Registry& registry);

// The axes most families share: which CUDA API (runtime or driver), and how the graph is
// built (by CUDA's stream capture, by explicit nodes, or by the layer's own capture;
// cases/host_chain.hpp). capture_by_layer came last, so the ids before it kept their meaning.
inline Axis api_axis() { return Axis::choice("api", {"driver", "runtime"}); }
inline Axis build_axis() { return Axis::choice("build", {"capture", "node", "capture_by_layer"}); }

}  // namespace hostcb::cases

// Declares a family: `rank` orders it among the others (unique), `make` builds it.
#define HOSTCB_FAMILY(rank, make) \
  static const ::hostcb::cases::FamilyDeclaration hostcb_family_declaration_##rank{rank, make}
