// Which known-bad controls `hostcb self-test` runs: by default one for each check in each
// family and layer it serves (app/selftest.hpp); --full every one.
#include <map>
#include <set>
#include <string>

#include "app/selftest.hpp"
#include "cases/cases.hpp"
#include "catch_compat.hpp"
#include "model/registry.hpp"

using namespace hostcb;

TEST_CASE("the default self-test runs one control for each family, layer and check, the first of each in plan order",
          "[selftest]") {
  Registry registry;
  cases::register_all_cases(registry);
  Selection only;
  only.only_controls = true;
  const std::vector<Scenario> all = registry.plan(only);
  const std::vector<Scenario> chosen = one_control_per_check(all);
  auto key = [](const Scenario& s) {
    return s.family->name + " " + (s.params.has("forward") ? s.params.get("forward") : "") + " " + s.control->describe();
  };
  std::map<std::string, std::string> first;  // key -> the first control's id in plan order
  for (const Scenario& s : all) first.emplace(key(s), s.id);
  std::set<std::string> keys;
  for (const Scenario& s : chosen) {
    CHECK(keys.insert(key(s)).second);  // once each
    CHECK(first.at(key(s)) == s.id);
  }
  CHECK(keys.size() == first.size());  // every family, layer and check has one
  // Every family with controls is there, and every check a control names.
  std::set<std::string> families_all, families_chosen, verdicts_all, verdicts_chosen;
  for (const Scenario& s : all) families_all.insert(s.family->name), verdicts_all.insert(s.control->describe());
  for (const Scenario& s : chosen) families_chosen.insert(s.family->name), verdicts_chosen.insert(s.control->describe());
  CHECK(families_chosen == families_all);
  CHECK(verdicts_chosen == verdicts_all);
  CHECK(chosen.size() * 4 < all.size());  // tens, not hundreds
  INFO(chosen.size() << " of " << all.size());
  CHECK(chosen.size() < 150);
}
