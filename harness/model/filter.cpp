#include "model/filter.hpp"

#include <algorithm>
#include <set>

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

namespace {
constexpr std::size_t kMaxAxisValues = 1'000'000;

bool all_digits(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

// "A-B" (whole numbers, A <= B): the values A, A+1, ..., B; otherwise the text itself.
std::vector<std::string> expand_range(const std::string& text, const std::string& option) {
  std::size_t dash = text.find('-');
  if (dash == std::string::npos) return {text};
  std::string from = text.substr(0, dash), to = text.substr(dash + 1);
  if (!all_digits(from) || !all_digits(to) || from.size() > 12 || to.size() > 12)
    throw UsageError(str("--axis '", option, "': a range is FIRST-LAST in whole numbers; got '", text, "'"));
  long long first = std::stoll(from), last = std::stoll(to);
  if (first > last) throw UsageError(str("--axis '", option, "': the range '", text, "' runs backwards"));
  if (static_cast<unsigned long long>(last - first) >= kMaxAxisValues)
    throw UsageError(str("--axis '", option, "' gives more than ", kMaxAxisValues, " values"));
  std::vector<std::string> values;
  for (long long v = first; v <= last; ++v) values.push_back(std::to_string(v));
  return values;
}
}  // namespace

AxisOverride parse_axis_override(const std::string& text) {
  std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError(str("--axis takes name=value[,value...]; got '", text, "'"));
  AxisOverride override_;
  override_.axis = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  std::set<std::string> seen;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = rest.find(',', start);
    std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) throw UsageError(str("--axis '", text, "' has an empty value"));
    for (auto& value : expand_range(item, text)) {
      if (!seen.insert(value).second) throw UsageError(str("--axis '", text, "' lists '", value, "' twice"));
      if (seen.size() > kMaxAxisValues)
        throw UsageError(str("--axis '", text, "' gives more than ", kMaxAxisValues, " values"));
      override_.values.push_back(std::move(value));
    }
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
