// The planner counts what a filter selects before it makes anything (glob_set.hpp,
// selected_combinations.hpp): the same ids in the same order as expanding everything and
// filtering, one bound on the count, and nothing made for combinations not selected.
#include <chrono>
#include <cstdint>
#include <random>

#include "catch_compat.hpp"
#include "model/errors.hpp"
#include "model/filter.hpp"
#include "model/glob_set.hpp"
#include "model/registry.hpp"
#include "model/selected_combinations.hpp"

using namespace hostcb;

namespace {

Family toy(std::string name, std::vector<Axis> axes) {
  Family f;
  f.name = std::move(name);
  f.axes = std::move(axes);
  f.body = [](ScenarioRun&) {};
  return f;
}

const std::function<void()> kNoPoll = [] {};

// What the planner selects, as ids, the slow way: every combination, then the filter.
std::vector<std::string> brute_force(const std::string& family, const std::vector<Axis>& axes, const Filter& filter) {
  std::vector<std::string> ids;
  for (const auto& params : expand(axes))
    if (filter.matches(scenario_id(family, axes, params))) ids.push_back(scenario_id(family, axes, params));
  return ids;
}

std::vector<std::string> counted(const std::string& family, const std::vector<Axis>& axes, const Filter& filter,
                                 std::uint64_t* count = nullptr) {
  GlobSet positive(filter.positive()), negative(filter.negative());
  SelectedCombinations selected(family, axes, positive, negative, 1000000, kNoPoll);
  if (count) *count = selected.count();
  std::vector<std::string> ids;
  selected.for_each([&](Params params) { ids.push_back(scenario_id(family, axes, params)); });
  return ids;
}

// For each filter: the counted selection is the brute-force one, in its order, and so is its count.
void counts_as_brute_force(const std::vector<Axis>& axes, const std::vector<const char*>& filters) {
  for (const char* text : filters) {
    INFO(text);
    const Filter filter = Filter::parse(text);
    std::uint64_t count = 0;
    const std::vector<std::string> ids = counted("f", axes, filter, &count);
    CHECK(ids == brute_force("f", axes, filter));
    CHECK(count == ids.size());
  }
}

}  // namespace

TEST_CASE("glob sets follow a text piece by piece as glob_match does on the whole", "[plan]") {
  std::mt19937 rng(7);
  const std::string alphabet = "ab/=*?";
  auto random_text = [&](std::size_t max, bool globs) {
    std::string text;
    for (std::size_t n = rng() % (max + 1); n > 0; --n) text += alphabet[rng() % (globs ? 6 : 4)];
    return text;
  };
  for (int trial = 0; trial < 3000; ++trial) {
    const std::string glob = random_text(6, true), a = random_text(4, false), b = random_text(4, false);
    GlobSet set({glob});
    GlobSet::State s = set.step(set.step(set.start(), a), b);
    INFO("glob '" << glob << "' text '" << a << b << "'");
    CHECK(set.matches(s) == glob_match(glob, a + b));
    if (set.dead(s)) CHECK_FALSE(glob_match(glob, a + b + random_text(4, false)));
    if (set.matches_any_continuation(s)) CHECK(glob_match(glob, a + b + random_text(4, false)));
  }
}

TEST_CASE("counting selects the ids filtering every combination would, in the same order", "[plan]") {
  const std::vector<Axis> axes = {Axis::choice("api", {"driver", "runtime"}), Axis::count("replays", {1, 2, 5, 10, 100}),
                                  Axis::choice("sync", {"each", "end"})};
  counts_as_brute_force(axes, {"*", "f/*", "f/api=driver/*", "*replays=1*", "*replays=1?*", "*-*sync=end", "f/*-*=1*:*=5*",
                               "*=r*:*=e*-f/api=d*", "g/*:f/api=runtime/replays=10/sync=each", "f/?pi=*e?d", "*1*0*"});
}

TEST_CASE("counting knows the value an axis leaves out of ids", "[plan]") {
  // fuzz's ops=graph is not spelled: its ids read as those of the family before the axis.
  const std::vector<Axis> axes = {Axis::count("seed", {1, 2}), Axis::choice("ops", {"graph", "all"}).leave_out_of_ids("graph"),
                                  Axis::choice("sync", {"each", "end"})};
  counts_as_brute_force(axes, {"*", "f/seed=1/sync=*", "f/seed=*/ops=all/*", "*ops=*", "f/*-*ops=all*", "*/sync=end",
                               "f/seed=2/sync=each:f/seed=2/ops=all/sync=each"});
  CHECK(counted("f", axes, Filter::parse("f/seed=1/sync=each")) == std::vector<std::string>{"f/seed=1/sync=each"});
}

TEST_CASE("a family no pattern reaches is never expanded, however large", "[plan]") {
  std::vector<Axis> axes = {Axis::count("a", {}), Axis::count("b", {})};
  for (auto& axis : axes)
    for (int v = 1; v <= 100000; ++v) axis.values.push_back(std::to_string(v));
  auto start = std::chrono::steady_clock::now();
  std::uint64_t count = 1;
  CHECK(counted("big", axes, Filter::parse("small/*"), &count).empty());
  CHECK(count == 0);
  // 10^10 combinations: counted only up to the bound, in about a million steps.
  GlobSet all({"*"}), none({});
  SelectedCombinations everything("big", axes, all, none, kMaxPlannedScenarios, kNoPoll);
  CHECK(everything.over_limit());
  CHECK(everything.count() == kMaxPlannedScenarios + 1);
  CHECK(counted("big", axes, Filter::parse("big/a=7/b=9:big/a=100000/*-*b=2*")).size() == 1 + 100000 - 11111);
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 20);
}

TEST_CASE("the plan refuses more than its bound before making a scenario", "[plan][registry]") {
  Registry registry;
  int made = 0;
  Family counted_family = toy("f", {Axis::count("replays", {1}), Axis::choice("sync", {"each", "end"})});
  counted_family.excluded = [&made](const Params&) -> std::optional<std::string> {
    ++made;  // what make_scenario asks of every scenario it makes (fuzz runs its model here)
    return std::nullopt;
  };
  registry.add(counted_family);
  registry.add(toy("g", {Axis::count("streams", {1})}));
  Selection selection;
  selection.overrides = {parse_axis_override("replays=1-600000"), parse_axis_override("streams=1-1000000")};
  selection.filter = "f/*";
  std::string what;
  try {
    registry.plan(selection);
  } catch (const UsageError& e) {
    what = e.what();
  }
  CHECK(what == "the selection names more than 1000000 scenarios, the most one command plans (counted as far as the "
                "family 'f'); narrow --filter or --axis");
  CHECK(made == 0);
  // Within the bound only the selected combinations are made: g's million never are.
  selection.filter = "f/replays=7/*:f/replays=5?" "?/sync=end";  // (no trigraph)
  CHECK(registry.plan(selection).size() == 2 + 100);
  CHECK(made == 2 + 100);
  // A pattern that matches nothing is found by counting, not by making everything.
  made = 0;
  selection.filter = "f/replays=700000/*";
  CHECK_THROWS_AS(registry.plan(selection), UsageError);
  selection.filter = "f/replays=7/*-g/*:f/replays=8/x";  // a negative pattern too
  CHECK_THROWS_AS(registry.plan(selection), UsageError);
  CHECK(made == 0);
}

TEST_CASE("planning stops when interrupted", "[plan][registry]") {
  Registry registry;
  registry.add(toy("f", {Axis::count("seed", {1})}));
  Selection selection;
  selection.overrides = {parse_axis_override("seed=1-500000")};
  int asked = 0;
  selection.interrupted = [&asked] { return ++asked > 3; };
  CHECK_THROWS_AS(registry.plan(selection), PlanningInterrupted);
  CHECK(asked == 4);
}
