#include "model/registry.hpp"

#include <stdexcept>

#include "model/errors.hpp"
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
  Scenario scenario{scenario_id(family.name, params), &family, std::move(params), {}, std::nullopt, {}, 0};
  if (family.excluded)
    if (auto reason = family.excluded(scenario.params)) scenario.excluded_reason = *reason;
  // A combination that cannot exist cannot be a control either: it would never run.
  if (family.control && scenario.excluded_reason.empty()) scenario.control = family.control(scenario.params);
  if (family.requirements) scenario.requirements = family.requirements(scenario.params);
  if (family.timeout) scenario.timeout_s = family.timeout(scenario.params);
  return scenario;
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

  std::vector<Scenario> planned;
  std::vector<bool> pattern_used(filter.positive().size(), false);
  std::vector<bool> pattern_hit_control(filter.positive().size(), false);
  std::vector<bool> negative_used(filter.negative().size(), false);
  for (const auto& family : families_) {
    for (auto& params : expand(overridden_axes(family, selection.overrides))) {
      Scenario scenario = make_scenario(family, std::move(params));
      const bool control = scenario.control.has_value();
      const bool wanted = control ? controls_wanted : !selection.only_controls;
      // A positive pattern counts as used when it names a scenario, even if a negative
      // pattern then removes it: "matches no scenario" is kept for typos.
      for (std::size_t p = 0; p < filter.positive().size(); ++p) {
        if (!glob_match(filter.positive()[p], scenario.id)) continue;
        (wanted ? pattern_used : pattern_hit_control)[p] = true;
      }
      for (std::size_t n = 0; n < filter.negative().size(); ++n)
        if (glob_match(filter.negative()[n], scenario.id)) negative_used[n] = true;
      if (wanted && filter.matches(scenario.id)) planned.push_back(std::move(scenario));
    }
  }
  if (selection.allow_empty) return planned;
  for (std::size_t p = 0; p < filter.positive().size(); ++p) {
    if (pattern_used[p]) continue;
    const std::string& pattern = filter.positive()[p];
    if (pattern_hit_control[p] && !controls_wanted)
      throw UsageError(str("filter pattern '", pattern, "' matches only known-bad controls; add --controls"));
    throw UsageError(str("filter pattern '", pattern, "' matches no scenario", family_hint(pattern, family_names),
                         " (see `hostcb list`)"));
  }
  for (std::size_t n = 0; n < filter.negative().size(); ++n)
    if (!negative_used[n])
      throw UsageError(str("negative filter pattern '-", filter.negative()[n], "' matches no scenario",
                           family_hint(filter.negative()[n], family_names), " (see `hostcb list`)"));
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
    if (parts.size() != family.axes.size() + 1)
      throw UsageError(str("scenario id '", id, "' does not give the ", family.axes.size(), " axes of ", family.name));
    Params params;
    for (std::size_t a = 0; a < family.axes.size(); ++a) {
      const std::string& part = parts[a + 1];
      std::size_t eq = part.find('=');
      if (eq == std::string::npos || part.substr(0, eq) != family.axes[a].name)
        throw UsageError(str("scenario id '", id, "': expected axis '", family.axes[a].name, "' in place ", a + 1));
      family.axes[a].check_value(part.substr(eq + 1));
      params.add(family.axes[a].name, part.substr(eq + 1));
    }
    return make_scenario(family, std::move(params));
  }
  throw UsageError(str("scenario id '", id, "' names no family"));
}

}  // namespace hostcb
