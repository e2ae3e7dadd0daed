// Axes, parameter sets and scenario ids.
//
// A family declares axes in order; a scenario is one value per axis. Its id is
// `family/axis=value/axis=value...` in declared order and never changes meaning:
// nightly history joins on it. An axis added to a family after its ids were published
// names the value that means what the family did before (Axis::leave_out_of_ids): ids
// leave that value out, so every published id keeps naming its scenario.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hostcb {

enum class AxisKind {
  choice,  // a fixed set of names (api=driver|runtime); overrides must pick from it
  count,   // positive integers (replays=1,2,5); overrides may give any in [min, max]
  word,    // any valid name (fuzz's cut=none|3.7n1); the family's body reads it
};

struct Axis {
  std::string name;
  AxisKind kind = AxisKind::choice;
  std::vector<std::string> values;  // the default values, in order
  std::int64_t min = 1;             // count axes only
  std::int64_t max = 1'000'000;     // count axes only
  std::string left_out;             // the value ids do not spell (empty: they spell every value)
  bool selects = false;             // an override of it selects the families that have it

  static Axis choice(std::string name, std::vector<std::string> values);
  static Axis count(std::string name, std::vector<std::int64_t> values,
                    std::int64_t max = 1'000'000);
  static Axis word(std::string name, std::vector<std::string> values);

  // Ids leave `name=value` out: the axis came after ids were published, and `value` is
  // what the family did without it.
  Axis& leave_out_of_ids(std::string value) {
    left_out = std::move(value);
    return *this;
  }
  bool spelled(const std::string& value) const { return left_out.empty() || value != left_out; }

  // `--axis NAME=...` picks what to test (forward: a layer), so a family without this axis
  // is left out of the plan: it would not go through what was picked. An override of any
  // other axis only reshapes the families that have it (docs/cli.md, "Axis overrides").
  Axis& selecting() {
    selects = true;
    return *this;
  }

  // Throws UsageError when `value` is not acceptable for this axis.
  void check_value(const std::string& value) const;
};

// One value per axis, in the family's declared axis order.
class Params {
 public:
  void add(std::string axis, std::string value);
  const std::string& get(const std::string& axis) const;  // throws std::out_of_range
  bool has(const std::string& axis) const;
  std::int64_t get_count(const std::string& axis) const;
  // The same values with `axis`'s replaced (a shifted seed, another cut).
  Params with(const std::string& axis, std::string value) const;
  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

// `params` in the order of `axes`, less the values the axes leave out of ids.
std::string scenario_id(const std::string& family, const std::vector<Axis>& axes, const Params& params);

// Names and values may hold letters, digits, '_' and '.': never '-', ':', '/', '=' or
// glob characters, so an exact id is always a valid filter.
bool is_valid_name(const std::string& name);

// The cartesian product in declared order; the last axis varies fastest.
std::vector<Params> expand(const std::vector<Axis>& axes);

}  // namespace hostcb
