// Scenario selection: gtest-style id filters and axis overrides.
//
//   --filter 'POS[:POS...][-NEG[:NEG...]]'   globs over ids; '*' any run, '?' one character.
//                                            No positive part means '*'; a bare family
//                                            name means family/*.
//   --axis name=v1,v2                        replace an axis's values in every family that has it;
//                                            A-B is the whole numbers A to B (seed=1-1000,2000).
#pragma once
#include <string>
#include <vector>

namespace hostcb {

bool glob_match(const std::string& pattern, const std::string& text);

class Filter {
 public:
  // Throws UsageError on an empty filter ("") or an empty pattern (e.g. "a::b").
  static Filter parse(const std::string& text);
  bool matches(const std::string& id) const;
  // A pattern that is just a family's name means every scenario of it: "replay" is
  // "replay/*".
  Filter with_bare_families(const std::vector<std::string>& families) const;
  const std::vector<std::string>& positive() const { return positive_; }
  const std::vector<std::string>& negative() const { return negative_; }

 private:
  std::vector<std::string> positive_;
  std::vector<std::string> negative_;
};

struct AxisOverride {
  std::string axis;
  std::vector<std::string> values;
};

// Parses "name=v1,v2", where a value may be a range A-B (at most 1,000,000 values in all).
// Throws UsageError on malformed text; values are checked against
// the families' axes when the plan is made.
AxisOverride parse_axis_override(const std::string& text);

}  // namespace hostcb
