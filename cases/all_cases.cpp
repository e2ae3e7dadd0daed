#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "cases/cases.hpp"

namespace hostcb::cases {

namespace {

// The families list: the order of `hostcb list` and of every report. Each name is a family
// declared (HOSTCB_FAMILY) in its own file in cases/.
const std::vector<std::string> kFamilyOrder = {
    "replay",
    "ordering",
    "lifetime",
    "update",
    "topology",
    "concurrency",
    "contracts",
    "multi_gpu",
    "callback_fault",
    "stream_callback",
    "stream_host_func",
    "capture_contract",
    "device_fault",
    "fuzz",
};

// Filled during static initialisation, before main: a function-local static, so it exists
// whichever family's declaration runs first.
std::vector<FamilyMaker>& declarations() {
  static std::vector<FamilyMaker> all;
  return all;
}

}  // namespace

FamilyDeclaration::FamilyDeclaration(FamilyMaker make) { declarations().push_back(make); }

std::vector<Family> in_listed_order(std::vector<Family> made, const std::vector<std::string>& order) {
  std::vector<Family> ordered;
  for (const auto& name : order) {
    auto it = std::find_if(made.begin(), made.end(), [&](const Family& f) { return f.name == name; });
    if (it == made.end())
      throw std::logic_error("family '" + name + "' is in the families list (cases/all_cases.cpp) but no file declares it");
    ordered.push_back(std::move(*it));
    made.erase(it);
  }
  if (!made.empty())
    throw std::logic_error("family '" + made.front().name +
                           "' is declared (HOSTCB_FAMILY) but not in the families list (cases/all_cases.cpp)");
  return ordered;
}

void register_all_cases(Registry& registry) {
  std::vector<Family> made;
  for (FamilyMaker make : declarations()) made.push_back(make());
  for (auto& family : in_listed_order(std::move(made), kFamilyOrder)) registry.add(std::move(family));
}

}  // namespace hostcb::cases
