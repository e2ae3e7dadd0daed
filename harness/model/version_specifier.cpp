#include "model/version_specifier.hpp"

#include <algorithm>
#include <stdexcept>

namespace hostcb {

namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// -1, 0 or 1; the shorter release padded with zeros.
int compare(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::uint64_t x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

// Whether `version` begins with `prefix` (==X.Y.*): padded as packaging pads it.
bool starts_with(const std::vector<std::uint64_t>& version, const std::vector<std::uint64_t>& prefix) {
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if ((i < version.size() ? version[i] : 0) != prefix[i]) return false;
  return true;
}

}  // namespace

namespace {

constexpr std::size_t kMaxDigits = 9;

// The numbers of `version`, or why it has none ("" then).
std::vector<std::uint64_t> release_numbers(const std::string& version, std::string& problem) {
  std::vector<std::uint64_t> numbers;
  problem.clear();
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = version.find('.', start);
    const std::string part = version.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty() || !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      problem = "is no release version (numbers joined by dots)";
      return {};
    }
    if (part.size() > kMaxDigits) {
      problem = "has a number of " + std::to_string(part.size()) + " digits; a release number has at most 9";
      return {};
    }
    numbers.push_back(std::stoull(part));
    if (dot == std::string::npos) return numbers;
    start = dot + 1;
  }
}

}  // namespace

std::optional<std::vector<std::uint64_t>> parse_release(const std::string& version) {
  std::string problem;
  std::vector<std::uint64_t> numbers = release_numbers(version, problem);
  if (!problem.empty()) return std::nullopt;
  return numbers;
}

std::string release_problem(const std::string& version) {
  std::string problem;
  release_numbers(version, problem);
  return problem;
}

VersionSpecifier VersionSpecifier::parse(const std::string& text) {
  VersionSpecifier spec;
  spec.text_ = text;
  if (trimmed(text).empty()) throw std::invalid_argument("an empty version range");
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string clause = trimmed(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    // Longest operators first, so ">=" is not read as ">" and "=13".
    static const std::pair<const char*, Op> kOps[] = {{"~=", Op::ge}, {"==", Op::eq}, {"!=", Op::ne}, {"<=", Op::le},
                                                      {">=", Op::ge}, {"<", Op::lt},  {">", Op::gt}};
    const auto op = std::find_if(std::begin(kOps), std::end(kOps),
                                 [&](const auto& o) { return clause.rfind(o.first, 0) == 0; });
    if (op == std::end(kOps))
      throw std::invalid_argument("'" + clause + "' starts with no operator (==, !=, <, <=, >, >=, ~=)");
    std::string version = trimmed(clause.substr(std::string(op->first).size()));
    Op kind = op->second;
    const bool wildcard = version.size() >= 2 && version.compare(version.size() - 2, 2, ".*") == 0;
    if (wildcard) {
      if (kind != Op::eq && kind != Op::ne)  // ~= is read as >= here
        throw std::invalid_argument("'" + clause + "': only == and != take a version ending in .*");
      version.resize(version.size() - 2);
      kind = kind == Op::eq ? Op::prefix_eq : Op::prefix_ne;
    }
    const auto release = parse_release(version);
    if (!release) throw std::invalid_argument("'" + clause + "': '" + version + "' " + release_problem(version));
    if (std::string(op->first) == "~=") {
      if (release->size() < 2) throw std::invalid_argument("'" + clause + "': ~= needs at least two numbers (~=13.0)");
      spec.clauses_.push_back({Op::ge, *release});
      spec.clauses_.push_back({Op::prefix_eq, std::vector<std::uint64_t>(release->begin(), release->end() - 1)});
    } else {
      spec.clauses_.push_back({kind, *release});
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (!spec.holds_some_release())
    throw std::invalid_argument("'" + text + "' holds no release version: its clauses exclude each other");
  return spec;
}

bool VersionSpecifier::contains(const std::string& version) const {
  const auto release = parse_release(version);
  return release && holds(*release);
}

bool VersionSpecifier::holds_some_release() const {
  // What each clause holds is a union of spans whose ends are its release (and, for .*,
  // the release after the prefix). A version on an end, just above one or just below one
  // (between it and every version below it) stands for every span there is: if none of
  // them holds, nothing does. Versions are padded to one length past the longest.
  std::size_t length = 1;
  for (const auto& c : clauses_) length = std::max(length, c.release.size() + 1);
  std::vector<std::vector<std::uint64_t>> ends = {{0}};
  for (const auto& c : clauses_) {
    ends.push_back(c.release);
    if (c.op == Op::prefix_eq || c.op == Op::prefix_ne) {
      std::vector<std::uint64_t> next = c.release;
      if (!next.empty()) ++next.back();
      ends.push_back(next);
    }
  }
  constexpr std::uint64_t kLargest = 999'999'999;  // the largest number a release has (9 digits)
  for (const auto& end : ends) {
    std::vector<std::uint64_t> at = end, above = end, below = end;
    at.resize(length, 0);
    above.resize(length, 0);
    above.push_back(1);
    if (holds(at) || holds(above)) return true;
    below.resize(length + 1, 0);
    auto last = std::find_if(below.rbegin(), below.rend(), [](std::uint64_t n) { return n != 0; });
    if (last == below.rend()) continue;  // 0: nothing below it
    --*last;
    std::fill(below.rbegin(), last, kLargest);
    if (holds(below)) return true;
  }
  return false;
}

bool VersionSpecifier::holds(const std::vector<std::uint64_t>& release) const {
  for (const auto& c : clauses_) {
    const int order = compare(release, c.release);
    const bool holds = c.op == Op::eq          ? order == 0
                       : c.op == Op::ne        ? order != 0
                       : c.op == Op::lt        ? order < 0
                       : c.op == Op::le        ? order <= 0
                       : c.op == Op::gt        ? order > 0
                       : c.op == Op::ge        ? order >= 0
                       : c.op == Op::prefix_eq ? starts_with(release, c.release)
                                               : !starts_with(release, c.release);
    if (!holds) return false;
  }
  return true;
}

}  // namespace hostcb
