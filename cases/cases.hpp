// The scenario families, one file each. A family file ends with HOSTCB_FAMILY(make), its one
// declaration, beside its body; register_all_cases adds every declared family in the order
// of the families list (kFamilyOrder in all_cases.cpp), which is the order of `hostcb list`
// and of every report. Adding a family is one new file here, its line in
// cases/CMakeLists.txt and its name in that list.
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
  explicit FamilyDeclaration(FamilyMaker make);
};

void register_all_cases(Registry& registry);

// `made` in the order of the names in `order`. Throws std::logic_error naming a family that
// is declared but not listed, or listed but not declared: hostcb stops at start.
std::vector<Family> in_listed_order(std::vector<Family> made, const std::vector<std::string>& order);

// The axes most families share: which CUDA API (runtime or driver), and how the graph is
// built (by CUDA's stream capture, by explicit nodes, or by the layer's own capture;
// cases/host_chain.hpp). capture_by_layer came last, so the ids before it kept their meaning.
inline Axis api_axis() { return Axis::choice("api", {"driver", "runtime"}); }
inline Axis build_axis() { return Axis::choice("build", {"capture", "node", "capture_by_layer"}); }

}  // namespace hostcb::cases

// Declares a family, made by `make` when the families are registered.
#define HOSTCB_FAMILY(make) static const ::hostcb::cases::FamilyDeclaration hostcb_family_declaration_##make{make}
