#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "cases/cases.hpp"

namespace hostcb::cases {

namespace {
// Filled during static initialisation, before main: a function-local static, so it exists
// whichever family's declaration runs first.
std::vector<std::pair<int, FamilyMaker>>& declarations() {
  static std::vector<std::pair<int, FamilyMaker>> all;
  return all;
}
}  // namespace

FamilyDeclaration::FamilyDeclaration(int rank, FamilyMaker make) { declarations().emplace_back(rank, make); }

void register_all_cases(Registry& registry) {
  auto sorted = declarations();
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].first == sorted[i - 1].first)
      throw std::logic_error("two families declared with rank " + std::to_string(sorted[i].first));
  for (const auto& [rank, make] : sorted) registry.add(make());
}

}  // namespace hostcb::cases
