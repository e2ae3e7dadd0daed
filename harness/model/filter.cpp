#include "model/filter.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <unordered_set>

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
  // An unset variable ($FILTER) must not turn into a full run: '' is refused like ':'.
  if (text.empty()) throw UsageError("the filter is empty; leave --filter out to select every scenario");
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

struct Range {
  long long first, last;
};

// "A-B" (whole numbers, A <= B), or nullopt for a single value.
std::optional<Range> range_of(const std::string& text, const std::string& option) {
  std::size_t dash = text.find('-');
  if (dash == std::string::npos) return std::nullopt;
  std::string from = text.substr(0, dash), to = text.substr(dash + 1);
  if (!all_digits(from) || !all_digits(to) || from.size() > 12 || to.size() > 12)
    throw UsageError(str("--axis '", option, "': a range is FIRST-LAST in whole numbers; got '", text, "'"));
  Range range{std::stoll(from), std::stoll(to)};
  if (range.first > range.last) throw UsageError(str("--axis '", option, "': the range '", text, "' runs backwards"));
  if (static_cast<unsigned long long>(range.last - range.first) >= kMaxAxisValues)
    throw UsageError(str("--axis '", option, "' gives more than ", kMaxAxisValues, " values"));
  return range;
}

// A value given twice, through ranges that overlap or a single value inside a range
// (a range's values are distinct by construction: no set of a million strings).
std::optional<long long> repeated(std::vector<Range> ranges, const std::unordered_set<std::string>& singles) {
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.first < b.first; });
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].first <= ranges[i - 1].last) return ranges[i].first;
  for (const auto& single : singles) {
    if (!all_digits(single) || single.size() > 12 || std::to_string(std::stoll(single)) != single) continue;
    const long long v = std::stoll(single);
    auto after = std::upper_bound(ranges.begin(), ranges.end(), v, [](long long x, const Range& r) { return x < r.first; });
    if (after != ranges.begin() && v <= std::prev(after)->last) return v;
  }
  return std::nullopt;
}
}  // namespace

AxisOverride parse_axis_override(const std::string& text) {
  std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError(str("--axis takes name=value[,value...]; got '", text, "'"));
  AxisOverride override_;
  override_.axis = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  std::unordered_set<std::string> singles;
  std::vector<Range> ranges;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = rest.find(',', start);
    std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) throw UsageError(str("--axis '", text, "' has an empty value"));
    const std::optional<Range> range = range_of(item, text);
    const std::size_t more = range ? static_cast<std::size_t>(range->last - range->first + 1) : 1;
    if (override_.values.size() + more > kMaxAxisValues)
      throw UsageError(str("--axis '", text, "' gives more than ", kMaxAxisValues, " values"));
    if (!range && !singles.insert(item).second) throw UsageError(str("--axis '", text, "' lists '", item, "' twice"));
    if (range) ranges.push_back(*range);
    if (!range) override_.values.push_back(item);
    for (long long v = range ? range->first : 1; range && v <= range->last; ++v) override_.values.push_back(std::to_string(v));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (auto twice = repeated(ranges, singles)) throw UsageError(str("--axis '", text, "' lists '", *twice, "' twice"));
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
