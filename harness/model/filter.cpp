#include "model/filter.hpp"

#include <algorithm>

#include "model/axes.hpp"
#include "model/errors.hpp"

namespace hostcb {

bool glob_match(const std::string& pattern, const std::string& text) {
  // Iterative matcher with one backtrack point for the last '*': linear in practice.
  std::size_t p = 0, t = 0, star = std::string::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

static std::vector<std::string> split_patterns(const std::string& text, const std::string& whole) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t colon = text.find(':', start);
    std::string piece = text.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (piece.empty()) throw UsageError(str("filter '", whole, "' has an empty pattern"));
    out.push_back(piece);
    if (colon == std::string::npos) return out;
    start = colon + 1;
  }
}

Filter Filter::parse(const std::string& text) {
  Filter filter;
  std::size_t dash = text.find('-');
  std::string pos = text.substr(0, dash);
  filter.positive_ = pos.empty() ? std::vector<std::string>{"*"} : split_patterns(pos, text);
  if (dash != std::string::npos) filter.negative_ = split_patterns(text.substr(dash + 1), text);
  return filter;
}

bool Filter::matches(const std::string& id) const {
  bool included = false;
  for (const auto& p : positive_) included = included || glob_match(p, id);
  if (!included) return false;
  for (const auto& n : negative_)
    if (glob_match(n, id)) return false;
  return true;
}

AxisOverride parse_axis_override(const std::string& text) {
  std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError(str("--axis takes name=value[,value...]; got '", text, "'"));
  AxisOverride override_;
  override_.axis = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  std::size_t start = 0;
  while (true) {
    std::size_t comma = rest.find(',', start);
    std::string value = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (value.empty()) throw UsageError(str("--axis '", text, "' has an empty value"));
    bool seen = false;
    for (const auto& v : override_.values) seen = seen || v == value;
    if (seen) throw UsageError(str("--axis '", text, "' lists '", value, "' twice"));
    override_.values.push_back(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return override_;
}

Filter Filter::with_bare_families(const std::vector<std::string>& families) const {
  Filter out = *this;
  for (auto* patterns : {&out.positive_, &out.negative_})
    for (auto& p : *patterns)
      if (std::find(families.begin(), families.end(), p) != families.end()) p += "/*";
  return out;
}

}  // namespace hostcb
