// The families list (cases/all_cases.cpp) orders the declared families; a family declared
// but not listed, or listed but not declared, stops hostcb at start instead of vanishing.
#include <stdexcept>

#include "cases/cases.hpp"
#include "catch_compat.hpp"

using namespace hostcb;

namespace {
Family named(const std::string& name) {
  Family f;
  f.name = name;
  return f;
}
std::string refusal(std::vector<Family> made, const std::vector<std::string>& order) {
  try {
    cases::in_listed_order(std::move(made), order);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("families come in the list's order, whatever order they were declared in", "[registry]") {
  auto ordered = cases::in_listed_order({named("c"), named("a"), named("b")}, {"a", "b", "c"});
  REQUIRE(ordered.size() == 3);
  CHECK((ordered[0].name == "a" && ordered[1].name == "b" && ordered[2].name == "c"));
}

TEST_CASE("a family declared but not in the families list is refused, not dropped", "[registry]") {
  CHECK(contains(refusal({named("a"), named("new_one")}, {"a"}),
                 "family 'new_one' is declared (HOSTCB_FAMILY) but not in the families list"));
}

TEST_CASE("a listed family that no file declares is refused", "[registry]") {
  CHECK(contains(refusal({named("a")}, {"a", "gone"}), "family 'gone' is in the families list"));
}

TEST_CASE("hostcb's families are each declared once and listed once", "[registry]") {
  Registry registry;
  cases::register_all_cases(registry);
  const auto& families = registry.families();
  REQUIRE(families.size() == 14);
  CHECK(families.front().name == "replay");
  CHECK(families.back().name == "fuzz");
}
