#include "model/axes.hpp"

#include <stdexcept>

#include "model/errors.hpp"

namespace hostcb {

Axis Axis::choice(std::string name, std::vector<std::string> values) {
  Axis axis;
  axis.name = std::move(name);
  axis.kind = AxisKind::choice;
  axis.values = std::move(values);
  return axis;
}

Axis Axis::count(std::string name, std::vector<std::int64_t> values, std::int64_t max) {
  Axis axis;
  axis.name = std::move(name);
  axis.kind = AxisKind::count;
  axis.max = max;
  for (auto v : values) axis.values.push_back(std::to_string(v));
  return axis;
}

Axis Axis::word(std::string name, std::vector<std::string> values) {
  Axis axis = choice(std::move(name), std::move(values));
  axis.kind = AxisKind::word;
  return axis;
}

void Axis::check_value(const std::string& value) const {
  if (kind == AxisKind::word) {
    if (!is_valid_name(value) || value.size() > 2000)
      throw UsageError(str("axis '", name, "' takes a word of letters, digits, '_' and '.'; got '", value, "'"));
    return;
  }
  if (kind == AxisKind::choice) {
    for (const auto& allowed : values)
      if (allowed == value) return;
    std::string list;
    for (const auto& allowed : values) list += (list.empty() ? "" : ", ") + allowed;
    throw UsageError(str("axis '", name, "' has no value '", value, "' (allowed: ", list, ")"));
  }
  std::size_t used = 0;
  long long parsed = 0;
  try {
    parsed = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || value[0] == '+')
    throw UsageError(str("axis '", name, "' takes whole numbers; '", value, "' is not one"));
  if (parsed < min || parsed > max)
    throw UsageError(str("axis '", name, "' takes values from ", min, " to ", max, "; got ", value));
  if (std::to_string(parsed) != value)  // "007" would make a second id for the same scenario
    throw UsageError(str("axis '", name, "': write '", parsed, "', not '", value, "'"));
}

void Params::add(std::string axis, std::string value) {
  items_.emplace_back(std::move(axis), std::move(value));
}

const std::string& Params::get(const std::string& axis) const {
  for (const auto& [name, value] : items_)
    if (name == axis) return value;
  throw std::out_of_range("scenario has no axis '" + axis + "'");
}

bool Params::has(const std::string& axis) const {
  for (const auto& item : items_)
    if (item.first == axis) return true;
  return false;
}

std::int64_t Params::get_count(const std::string& axis) const { return std::stoll(get(axis)); }

std::string scenario_id(const std::string& family, const std::vector<Axis>& axes, const Params& params) {
  std::string id = family;
  for (const auto& [name, value] : params.items()) {
    bool spelled = true;
    for (const auto& axis : axes)
      if (axis.name == name) spelled = axis.spelled(value);
    if (spelled) id += "/" + name + "=" + value;
  }
  return id;
}

Params Params::with(const std::string& axis, std::string value) const {
  Params changed = *this;
  for (auto& [name, v] : changed.items_)
    if (name == axis) v = std::move(value);
  return changed;
}

bool is_valid_name(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::vector<Params> expand(const std::vector<Axis>& axes) {
  for (const auto& axis : axes)
    if (axis.values.empty()) return {};  // an axis with no value leaves no combination
  std::vector<Params> out;
  std::vector<std::size_t> odometer(axes.size(), 0);
  while (true) {
    Params params;
    for (std::size_t a = 0; a < axes.size(); ++a) params.add(axes[a].name, axes[a].values[odometer[a]]);
    out.push_back(std::move(params));
    // Advance like an odometer: the last axis turns fastest.
    std::size_t a = axes.size();
    while (a > 0) {
      --a;
      if (++odometer[a] < axes[a].values.size()) break;
      odometer[a] = 0;
      if (a == 0) return out;
    }
    if (axes.empty()) return out;
  }
}

}  // namespace hostcb
