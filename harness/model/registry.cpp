#include "model/registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/errors.hpp"
#include "model/glob_set.hpp"
#include "model/selected_combinations.hpp"
#include "model/suggest.hpp"

namespace hostcb {

void Registry::add(Family family) {
  if (!is_valid_name(family.name)) throw std::logic_error("bad family name '" + family.name + "'");
  if (!family.body) throw std::logic_error("family '" + family.name + "' has no body");
  for (const auto& existing : families_)
    if (existing.name == family.name) throw std::logic_error("family '" + family.name + "' registered twice");
  for (std::size_t a = 0; a < family.axes.size(); ++a) {
    const Axis& axis = family.axes[a];
    if (!is_valid_name(axis.name)) throw std::logic_error(family.name + ": bad axis name '" + axis.name + "'");
    for (std::size_t b = 0; b < a; ++b)
      if (family.axes[b].name == axis.name) throw std::logic_error(family.name + ": axis '" + axis.name + "' twice");
    for (const auto& value : axis.values)
      if (!is_valid_name(value)) throw std::logic_error(family.name + ": bad value '" + value + "'");
    if (!axis.left_out.empty() && std::find(axis.values.begin(), axis.values.end(), axis.left_out) == axis.values.end())
      throw std::logic_error(family.name + ": axis '" + axis.name + "' leaves out a value it does not offer by default");
  }
  families_.push_back(std::move(family));
}

// Applies the overrides to one family's axes; an override for an axis the family lacks
// leaves it alone.
static std::vector<Axis> overridden_axes(const Family& family, const std::vector<AxisOverride>& overrides) {
  std::vector<Axis> axes = family.axes;
  for (const auto& override_ : overrides)
    for (auto& axis : axes)
      if (axis.name == override_.axis) axis.values = override_.values;
  return axes;
}

// True when an override names a selecting axis (Axis::selecting) that the family lacks:
// the family is then left out of the plan.
static bool left_out_by_overrides(const Family& family, const std::vector<Family>& families,
                                  const std::vector<AxisOverride>& overrides) {
  for (const auto& override_ : overrides) {
    bool selecting = false, has_it = false;
    for (const auto& other : families)
      for (const auto& axis : other.axes)
        if (axis.name == override_.axis) selecting = selecting || axis.selects;
    for (const auto& axis : family.axes) has_it = has_it || axis.name == override_.axis;
    if (selecting && !has_it) return true;
  }
  return false;
}

static void check_overrides(const std::vector<Family>& families, const std::vector<AxisOverride>& overrides) {
  for (std::size_t i = 0; i < overrides.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (overrides[i].axis == overrides[j].axis)  // silently keeping the last one hid the first
        throw UsageError(str("axis '", overrides[i].axis, "' is overridden twice; give all its values in one --axis ",
                             overrides[i].axis, "=V1,V2"));
  for (const auto& override_ : overrides) {
    bool known = false;
    for (const auto& family : families)
      for (const auto& axis : family.axes) {
        if (axis.name != override_.axis) continue;
        known = true;
        for (const auto& value : override_.values) axis.check_value(value);
      }
    if (!known) throw UsageError(str("unknown axis '", override_.axis, "' (see `hostcb list --format json`)"));
  }
}

Scenario Registry::make_scenario(const Family& family, Params params) const {
  Scenario scenario{scenario_id(family.name, family.axes, params), &family, std::move(params), {}, std::nullopt, {}, 0};
  if (family.excluded)
    if (auto reason = family.excluded(scenario.params)) scenario.excluded_reason = *reason;
  // A combination that cannot exist cannot be a control either: it would never run.
  if (family.control && scenario.excluded_reason.empty()) scenario.control = family.control(scenario.params);
  if (family.requirements) scenario.requirements = family.requirements(scenario.params);
  if (family.timeout) scenario.timeout_s = family.timeout(scenario.params);
  return scenario;
}

// Why a combination is no scenario (Family::only_as_control), or nullopt when it is one.
static std::optional<std::string> no_scenario(const Scenario& scenario) {
  if (scenario.control || !scenario.family->only_as_control) return std::nullopt;
  return scenario.family->only_as_control(scenario.params);
}

// "; did you mean the family 'replay'?" for a pattern that looks like a mistyped family.
static std::string family_hint(const std::string& pattern, const std::vector<std::string>& families) {
  std::string word = pattern.substr(0, pattern.find('/'));
  if (word.find_first_of("*?") != std::string::npos) return "";
  std::string family = closest_match(word, families);
  return family.empty() || family == word ? "" : "; did you mean the family '" + family + "'?";
}

std::vector<Scenario> Registry::plan(const Selection& selection) const {
  std::vector<std::string> family_names, with_axes;  // a family without axes has its name as its id
  for (const auto& family : families_) {
    family_names.push_back(family.name);
    if (!family.axes.empty()) with_axes.push_back(family.name);
  }
  Filter filter = Filter::parse(selection.filter).with_bare_families(with_axes);
  check_overrides(families_, selection.overrides);
  const bool controls_wanted = selection.include_controls || selection.only_controls;
  const auto poll = [&] {
    if (selection.interrupted && selection.interrupted()) throw PlanningInterrupted("interrupted while planning");
  };
  std::vector<std::vector<Axis>> axes;
  for (const auto& family : families_)
    if (left_out_by_overrides(family, families_, selection.overrides))
      axes.push_back({Axis::choice("none", {})});  // one axis without values: no combination
    else
      axes.push_back(overridden_axes(family, selection.overrides));

  // Every pattern must match something, negative ones included (unless --allow-empty):
  // counted, never expanded.
  const GlobSet none({});
  auto matches_something = [&](const std::string& pattern) {
    const GlobSet one({pattern});
    for (std::size_t f = 0; f < families_.size(); ++f)
      if (SelectedCombinations(families_[f].name, axes[f], one, none, 0, poll).count() > 0) return true;
    return false;
  };
  for (const auto& pattern : filter.positive())
    if (!selection.allow_empty && !matches_something(pattern))
      throw UsageError(str("filter pattern '", pattern, "' matches no scenario", family_hint(pattern, family_names),
                           " (see `hostcb list`)"));
  for (const auto& pattern : filter.negative())
    if (!selection.allow_empty && !matches_something(pattern))
      throw UsageError(str("negative filter pattern '-", pattern, "' matches no scenario",
                           family_hint(pattern, family_names), " (see `hostcb list`)"));

  // Count first: one bound on what a command plans, before anything is expanded.
  const GlobSet positive(filter.positive()), negative(filter.negative());
  std::vector<SelectedCombinations> selected;
  std::uint64_t total = 0;
  for (std::size_t f = 0; f < families_.size(); ++f) {
    selected.emplace_back(families_[f].name, axes[f], positive, negative, kMaxPlannedScenarios - total, poll);
    total += selected.back().count();
    if (total > kMaxPlannedScenarios)
      throw UsageError(str("the selection names more than ", kMaxPlannedScenarios,
                           " scenarios, the most one command plans (counted as far as the family '", families_[f].name,
                           "'); narrow --filter or --axis"));
  }

  // Only the selected combinations are made: a family's plan-time rules (exclusions,
  // controls: fuzz runs its model there) run for them alone.
  std::vector<Scenario> planned;
  std::vector<bool> pattern_used(filter.positive().size(), false);
  std::vector<bool> pattern_hit_control(filter.positive().size(), false);
  std::size_t made = 0;
  for (std::size_t f = 0; f < families_.size(); ++f) {
    selected[f].for_each([&](Params params) {
      if (++made % 1024 == 0) poll();
      Scenario scenario = make_scenario(families_[f], std::move(params));
      if (no_scenario(scenario)) return;
      const bool control = scenario.control.has_value();
      const bool wanted = control ? controls_wanted : !selection.only_controls;
      for (std::size_t p = 0; p < filter.positive().size(); ++p)
        if (glob_match(filter.positive()[p], scenario.id)) (wanted ? pattern_used : pattern_hit_control)[p] = true;
      if (wanted) planned.push_back(std::move(scenario));
    });
  }
  if (selection.allow_empty) return planned;
  // A pattern whose scenarios (after the negatives) are all controls needs --controls.
  for (std::size_t p = 0; p < filter.positive().size(); ++p)
    if (!pattern_used[p] && pattern_hit_control[p] && !controls_wanted)
      throw UsageError(str("filter pattern '", filter.positive()[p], "' matches only known-bad controls; add --controls"));
  if (planned.empty()) throw UsageError(str("filter '", selection.filter, "' selects no scenario"));
  return planned;
}

Scenario Registry::resolve(const std::string& id) const {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    std::size_t slash = id.find('/', start);
    parts.push_back(id.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  for (const auto& family : families_) {
    if (family.name != parts[0]) continue;
    std::size_t spelled = 0;  // the axes an id must spell
    for (const auto& axis : family.axes) spelled += axis.left_out.empty();
    if (parts.size() < spelled + 1 || parts.size() > family.axes.size() + 1)
      throw UsageError(str("scenario id '", id, "' does not give the ", family.axes.size(), " axes of ", family.name));
    Params params;
    std::size_t next = 1;  // the next part of the id to read
    for (std::size_t a = 0; a < family.axes.size(); ++a) {
      const Axis& axis = family.axes[a];
      const std::string part = next < parts.size() ? parts[next] : "";
      const std::size_t eq = part.find('=');
      if (eq == std::string::npos || part.substr(0, eq) != axis.name) {
        if (axis.left_out.empty())
          throw UsageError(str("scenario id '", id, "': expected axis '", axis.name, "' in place ", next));
        params.add(axis.name, axis.left_out);  // not spelled: the value ids leave out
        continue;
      }
      const std::string value = part.substr(eq + 1);
      axis.check_value(value);
      if (!axis.spelled(value))  // one spelling per scenario
        throw UsageError(str("scenario id '", id, "': leave out '", part, "' (ids do not spell it)"));
      params.add(axis.name, value);
      ++next;
    }
    if (next != parts.size())
      throw UsageError(str("scenario id '", id, "': '", parts[next], "' is no axis of ", family.name, " in that place"));
    Scenario scenario = make_scenario(family, std::move(params));
    if (auto why = no_scenario(scenario)) throw UsageError(str("'", id, "' is no scenario: ", *why));
    return scenario;
  }
  throw UsageError(str("scenario id '", id, "' names no family"));
}

}  // namespace hostcb
