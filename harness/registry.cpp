#include "registry.hpp"

#include <stdexcept>

#include "errors.hpp"

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

std::vector<Scenario> Registry::plan(const Selection& selection) const {
  Filter filter = Filter::parse(selection.filter);
  check_overrides(families_, selection.overrides);

  std::vector<Scenario> planned;
  std::vector<bool> pattern_used(filter.positive().size(), false);
  std::vector<bool> pattern_hit_control(filter.positive().size(), false);
  for (const auto& family : families_) {
    for (auto& params : expand(overridden_axes(family, selection.overrides))) {
      std::string id = scenario_id(family.name, params);
      // A positive pattern counts as used when it names a scenario, even if a negative
      // pattern then removes it: "matches no scenario" is kept for typos.
      for (std::size_t p = 0; p < filter.positive().size(); ++p) {
        if (!glob_match(filter.positive()[p], id)) continue;
        (family.control && !selection.include_controls ? pattern_hit_control : pattern_used)[p] = true;
      }
      if (!filter.matches(id) || (family.control && !selection.include_controls)) continue;
      Scenario scenario{id, &family, params, {}};
      if (family.excluded)
        if (auto reason = family.excluded(params)) scenario.excluded_reason = *reason;
      planned.push_back(std::move(scenario));
    }
  }
  for (std::size_t p = 0; p < filter.positive().size(); ++p) {
    if (pattern_used[p]) continue;
    const std::string& pattern = filter.positive()[p];
    if (pattern_hit_control[p])
      throw UsageError(str("filter pattern '", pattern, "' matches only known-bad controls; add --controls"));
    throw UsageError(str("filter pattern '", pattern, "' matches no scenario (see `hostcb list`)"));
  }
  if (planned.empty()) throw UsageError(str("filter '", selection.filter, "' selects no scenario"));
  return planned;
}

}  // namespace hostcb
