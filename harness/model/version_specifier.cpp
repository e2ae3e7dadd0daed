#include "model/version_specifier.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace hostcb {

namespace {

// The length of the whitespace character at `at` (Python's str.isspace(), in UTF-8: what
// packaging's \s and strip() skip), or 0.
std::size_t space_at(const std::string& text, std::size_t at) {
  if (at >= text.size()) return 0;
  auto byte = [&](std::size_t k) { return at + k < text.size() ? static_cast<unsigned char>(text[at + k]) : 0u; };
  const unsigned c = byte(0);
  if (c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f)) return 1;
  if (c == 0xc2 && (byte(1) == 0x85 || byte(1) == 0xa0)) return 2;              // U+0085, U+00A0
  if (c == 0xe1 && byte(1) == 0x9a && byte(2) == 0x80) return 3;                 // U+1680
  const unsigned t = byte(2);
  if (c == 0xe2 && byte(1) == 0x80 && ((t >= 0x80 && t <= 0x8a) || t == 0xa8 || t == 0xa9 || t == 0xaf))
    return 3;                                                                    // U+2000-200A, 2028, 2029, 202F
  if (c == 0xe2 && byte(1) == 0x81 && byte(2) == 0x9f) return 3;                 // U+205F
  if (c == 0xe3 && byte(1) == 0x80 && byte(2) == 0x80) return 3;                 // U+3000
  return 0;
}

// `text` less the whitespace around it, as Python's str.strip().
std::string stripped(const std::string& text) {
  std::size_t begin = 0;
  while (std::size_t n = space_at(text, begin)) begin += n;
  std::size_t end = begin;
  for (std::size_t at = begin; at < text.size();) {
    if (std::size_t n = space_at(text, at)) {
      at += n;
    } else {
      end = ++at;
    }
  }
  return text.substr(begin, end - begin);
}

bool has_space(const std::string& text) {
  for (std::size_t at = 0; at < text.size(); ++at)
    if (space_at(text, at)) return true;
  return false;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_separator(char c) { return c == '.' || c == '_' || c == '-'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string ascii_lower(std::string text) {
  for (char& c : text) c = lower(c);
  return text;
}

Number number_of(const std::string& digits) {
  const std::size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? Number("0") : digits.substr(first);
}

Number plus_one(Number n) {
  for (std::size_t i = n.size(); i-- > 0;) {
    if (n[i] != '9') {
      ++n[i];
      return n;
    }
    n[i] = '0';
  }
  return "1" + n;
}

// Whether `word` is at `at` in any case (the version pattern is IGNORECASE).
bool word_at(const std::string& text, std::size_t at, std::size_t end, const char* word) {
  const std::size_t n = std::strlen(word);
  if (at + n > end) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (lower(text[at + i]) != word[i]) return false;
  return true;
}

// packaging's VERSION_PATTERN over text[at, end), whole, no whitespace: each optional part
// taken the first way it matches and never given back, as its possessive groups do.
std::optional<Version> parse_exact(const std::string& text, std::size_t at, std::size_t end) {
  Version v;
  auto digits = [&](std::size_t& i) -> std::optional<Number> {
    const std::size_t start = i;
    while (i < end && is_digit(text[i])) ++i;
    if (i == start) return std::nullopt;
    return number_of(text.substr(start, i - start));
  };
  auto separator = [&](std::size_t& i) {
    if (i < end && is_separator(text[i])) ++i;
  };
  // A letter part (pre, post, dev): [sep] WORD [sep] [N]; returns where it ends, 0 if absent.
  auto lettered = [&](std::size_t i, const char* word, Number& number) -> std::size_t {
    separator(i);
    if (!word_at(text, i, end, word)) return 0;
    i += std::strlen(word);
    separator(i);
    std::optional<Number> n = digits(i);
    number = n ? *n : "0";
    return i;
  };
  if (at < end && lower(text[at]) == 'v') ++at;
  std::optional<Number> first = digits(at);
  if (!first) return std::nullopt;
  if (at < end && text[at] == '!') {
    v.epoch = *first;
    ++at;
    if (!(first = digits(at))) return std::nullopt;
  }
  v.release.push_back(*first);
  while (at + 1 < end && text[at] == '.' && is_digit(text[at + 1])) {
    ++at;
    v.release.push_back(*digits(at));
  }
  static const std::pair<const char*, int> kPre[] = {{"alpha", 0}, {"a", 0},   {"beta", 1}, {"b", 1},
                                                     {"preview", 2}, {"pre", 2}, {"c", 2},    {"rc", 2}};
  for (const auto& [word, kind] : kPre)
    if (std::size_t after = lettered(at, word, v.pre_number)) {
      v.pre_kind = kind;
      at = after;
      break;
    }
  Number number;
  if (at + 1 < end && text[at] == '-' && is_digit(text[at + 1])) {  // 1.0-1 is 1.0.post1
    ++at;
    v.post = digits(at);
  } else {
    for (const char* word : {"post", "rev", "r"})
      if (std::size_t after = lettered(at, word, number)) {
        v.post = number;
        at = after;
        break;
      }
  }
  if (std::size_t after = lettered(at, "dev", number)) {
    v.dev = number;
    at = after;
  }
  if (at + 1 < end && text[at] == '+' && is_alnum(text[at + 1])) {
    std::vector<Version::LocalPart> parts;
    auto part = [&](std::size_t& i) {
      const std::size_t start = i;
      while (i < end && is_alnum(text[i])) ++i;
      std::string t = text.substr(start, i - start);
      const bool number = std::all_of(t.begin(), t.end(), is_digit);
      parts.push_back({number, number ? number_of(t) : ascii_lower(t)});
    };
    ++at;
    part(at);
    while (at + 1 < end && is_separator(text[at]) && is_alnum(text[at + 1])) {
      ++at;
      part(at);
    }
    v.local = std::move(parts);
  }
  if (at != end) return std::nullopt;
  return v;
}

// ---- packaging's order, and the points between versions (packaging/_ranges.py) ----------

// A local part's sort key, or the one that sorts after every local (a boundary's).
struct Segment {
  int rank;  // -1 letters, 0 a number, 1 above every local
  std::string text;
};

// Version._key, as one struct: (epoch, release less trailing zeros, the suffix of six,
// [local], [()]), or below / above everything. Tuples compare item by item, a shorter one
// first when it is a prefix of the other.
struct Key {
  int infinity = 0;  // -1 below every version, 1 above
  Number epoch;
  std::vector<Number> release;
  int pre_rank = 3;
  Number pre_number = "0";
  int post_rank = 0;
  bool post_infinite = false;  // a boundary after every post-release
  Number post_number = "0";
  int dev_rank = 1;
  Number dev_number = "0";
  std::optional<std::vector<Segment>> local;  // the fourth item
  bool past_local = false;                    // the fifth: (*key, ()) after a local
};

int compare_ints(long a, long b) { return a < b ? -1 : a > b ? 1 : 0; }

int compare_segments(const std::vector<Segment>& a, const std::vector<Segment>& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (int c = compare_ints(a[i].rank, b[i].rank)) return c;
    int c = a[i].rank == 0 ? compare_numbers(a[i].text, b[i].text) : a[i].text.compare(b[i].text);
    if (c) return c < 0 ? -1 : 1;
  }
  return compare_ints(static_cast<long>(a.size()), static_cast<long>(b.size()));
}

int compare_keys(const Key& a, const Key& b) {
  if (a.infinity || b.infinity) return compare_ints(a.infinity, b.infinity);
  if (int c = compare_numbers(a.epoch, b.epoch)) return c;
  for (std::size_t i = 0; i < std::min(a.release.size(), b.release.size()); ++i)
    if (int c = compare_numbers(a.release[i], b.release[i])) return c;
  if (int c = compare_ints(static_cast<long>(a.release.size()), static_cast<long>(b.release.size()))) return c;
  if (int c = compare_ints(a.pre_rank, b.pre_rank)) return c;
  if (int c = compare_numbers(a.pre_number, b.pre_number)) return c;
  if (int c = compare_ints(a.post_rank, b.post_rank)) return c;
  if (int c = compare_ints(a.post_infinite, b.post_infinite)) return c;
  if (int c = compare_numbers(a.post_number, b.post_number)) return c;
  if (int c = compare_ints(a.dev_rank, b.dev_rank)) return c;
  if (int c = compare_numbers(a.dev_number, b.dev_number)) return c;
  if (a.local.has_value() != b.local.has_value()) return a.local ? 1 : -1;
  if (a.local)
    if (int c = compare_segments(*a.local, *b.local)) return c;
  return compare_ints(a.past_local, b.past_local);
}

Key key_of(const Version& v) {
  Key k;
  k.epoch = v.epoch;
  k.release = v.release;
  while (!k.release.empty() && k.release.back() == "0") k.release.pop_back();
  if (v.pre_kind < 0 && !v.post && v.dev) {
    k.pre_rank = -1;  // 1.0.dev1 sorts before every pre-release of 1.0
  } else if (v.pre_kind >= 0) {
    k.pre_rank = v.pre_kind;
    k.pre_number = v.pre_number;
  }
  if (v.post) {
    k.post_rank = 1;
    k.post_number = *v.post;
  }
  if (v.dev) {
    k.dev_rank = 0;
    k.dev_number = *v.dev;
  }
  if (v.local) {
    k.local.emplace();
    for (const auto& part : *v.local) k.local->push_back({part.is_number ? 0 : -1, part.text});
  }
  return k;
}

// A version, or a point between versions (BoundaryVersion), or one end of the line.
enum class Kind { below_all, version, after_locals, after_posts, above_all };
struct Point {
  Kind kind = Kind::version;
  Version v;
};

Key key_of(const Point& p) {
  if (p.kind == Kind::below_all || p.kind == Kind::above_all) {
    Key k;
    k.infinity = p.kind == Kind::below_all ? -1 : 1;
    return k;
  }
  Key k = key_of(p.v);
  if (p.kind == Kind::after_posts) {  // after V.postN for every N
    k.post_rank = 1;
    k.post_infinite = true;
    k.dev_rank = 1;
    k.dev_number = "0";
  }
  if (p.kind != Kind::version) k.local = std::vector<Segment>{{1, ""}};  // after every local
  return k;
}

// (*key, ()): just past the version (and before its local versions, when it has none).
Key just_past(const Version& v) {
  Key k = key_of(v);
  if (k.local)
    k.past_local = true;
  else
    k.local.emplace();
  return k;
}

struct Bound {
  Point at;
  bool inclusive = false;
};
using Interval = std::pair<Bound, Bound>;  // lower, upper
using Intervals = std::vector<Interval>;

Bound below_all() { return {{Kind::below_all, {}}, false}; }
Bound above_all() { return {{Kind::above_all, {}}, false}; }
Bound at(Version v, bool inclusive) { return {{Kind::version, std::move(v)}, inclusive}; }
Bound boundary(Kind kind, Version v, bool inclusive) { return {{kind, std::move(v)}, inclusive}; }

// Where a lower bound starts letting versions in, and where an upper one stops.
Key lower_edge(const Bound& b) {
  if (b.at.kind == Kind::version && !b.inclusive) return just_past(b.at.v);
  return key_of(b.at);
}
Key upper_edge(const Bound& b) {
  if (b.at.kind == Kind::version && b.inclusive) return just_past(b.at.v);
  return key_of(b.at);
}

bool in(const Intervals& intervals, const Version& v) {
  const Key key = key_of(v);
  for (const auto& [lower, upper] : intervals) {
    if (compare_keys(key, lower_edge(lower)) < 0) return false;
    if (compare_keys(key, upper_edge(upper)) < 0) return true;
  }
  return false;
}

Version with(const Version& v, std::optional<Number> post, std::optional<Number> dev) {
  Version out = v;
  out.post = std::move(post);
  out.dev = std::move(dev);
  out.local.reset();
  return out;
}

Version release_dev0(Number epoch, std::vector<Number> release) {
  Version out;
  out.epoch = std::move(epoch);
  out.release = std::move(release);
  out.dev = "0";
  return out;
}

// The smallest version in the next prefix: 1.2 -> 1.3.dev0.
Version next_prefix_dev0(const Version& v) {
  std::vector<Number> release = v.release;
  release.back() = plus_one(release.back());
  return release_dev0(v.epoch, std::move(release));
}

const Version& min_version() {  // 0.dev0: no version sorts below it
  static const Version kMin = release_dev0("0", {"0"});
  return kMin;
}

// The least version above a boundary, where there is one.
std::optional<Version> successor(const Point& p) {
  if (p.kind == Kind::after_locals) {
    if (p.v.dev) return with(p.v, p.v.post, plus_one(*p.v.dev));
    return with(p.v, p.v.post ? plus_one(*p.v.post) : Number("0"), Number("0"));
  }
  if (p.kind == Kind::after_posts && p.v.pre_kind >= 0) {
    Version next = with(p.v, std::nullopt, Number("0"));
    next.pre_number = plus_one(p.v.pre_number);
    return next;
  }
  return std::nullopt;
}

bool range_is_empty(const Bound& lower, const Bound& upper) {
  if (upper.at.kind == Kind::above_all) return false;
  if (lower.at.kind == Kind::below_all)
    return !upper.inclusive && upper.at.kind == Kind::version && compare(upper.at.v, min_version()) <= 0;
  const Key low = key_of(lower.at), up = key_of(upper.at);
  if (lower.at.kind == Kind::version && upper.at.kind == Kind::version)
    return lower.inclusive && upper.inclusive ? compare_keys(low, up) > 0 : compare_keys(low, up) >= 0;
  if (lower.at.kind != Kind::version)
    if (std::optional<Version> next = successor(lower.at)) {
      if (upper.at.kind == Kind::version && compare(upper.at.v, *next) == 0) return !upper.inclusive;
      if (compare_keys(up, key_of(*next)) < 0) return true;
    }
  if (compare_keys(low, up) == 0) return !(lower.inclusive && upper.inclusive);
  return compare_keys(low, up) > 0;
}

// LowerBound's order: by point, an inclusive bound first at the same point.
bool lower_before(const Bound& a, const Bound& b) {
  if (int c = compare_keys(key_of(a.at), key_of(b.at))) return c < 0;
  return a.inclusive && !b.inclusive;
}
// UpperBound's order: by point, an exclusive bound first at the same point.
bool upper_before(const Bound& a, const Bound& b) {
  if (int c = compare_keys(key_of(a.at), key_of(b.at))) return c < 0;
  return !a.inclusive && b.inclusive;
}

Intervals intersect(const Intervals& left, const Intervals& right) {
  Intervals out;
  std::size_t i = 0, j = 0;
  while (i < left.size() && j < right.size()) {
    const Bound& lower = lower_before(left[i].first, right[j].first) ? right[j].first : left[i].first;
    Bound upper;
    if (upper_before(right[j].second, left[i].second)) {
      upper = right[j++].second;
    } else {
      upper = left[i++].second;
    }
    if (!range_is_empty(lower, upper)) out.emplace_back(lower, upper);
  }
  return out;
}

// What one clause holds (bounds_for_spec).
Intervals intervals_of(const VersionSpecifier::Clause& c) {
  if (c.op == "===") return {{below_all(), above_all()}};
  const Version& v = *c.parsed;
  if (c.wildcard) {
    Bound lower = at(release_dev0(v.epoch, v.release), true), upper = at(next_prefix_dev0(v), false);
    if (c.op == "==") return {{lower, upper}};
    return {{below_all(), at(release_dev0(v.epoch, v.release), false)}, {at(next_prefix_dev0(v), true), above_all()}};
  }
  if (c.op == ">=") return {{at(v, true), above_all()}};
  if (c.op == "<=") return {{below_all(), boundary(Kind::after_locals, v, true)}};
  if (c.op == ">") {
    if (v.dev) return {{at(with(v, v.post, plus_one(*v.dev)), true), above_all()}};
    if (v.post) return {{at(with(v, plus_one(*v.post), Number("0")), true), above_all()}};
    return {{boundary(Kind::after_posts, v, false), above_all()}};  // not V, V+local, V.postN
  }
  if (c.op == "<") {  // not V's pre-releases, unless V is one
    Version bound = v.is_prerelease() ? v : with(v, v.post, Number("0"));
    if (compare(bound, min_version()) <= 0) return {};
    return {{below_all(), at(bound, false)}};
  }
  if (c.op == "~=") {
    Version prefix = v;
    prefix.release.pop_back();
    return {{at(v, true), at(next_prefix_dev0(prefix), false)}};
  }
  // ==V holds V's local versions too, unless V names one; !=V is the rest.
  const bool has_local = c.version.find('+') != std::string::npos;
  Bound upper = has_local ? at(v, true) : boundary(Kind::after_locals, v, true);
  if (c.op == "==") return {{at(v, true), upper}};
  upper.inclusive = false;
  return {{below_all(), at(v, false)}, {upper, above_all()}};
}

constexpr const char* kOperators = "(===, ==, !=, <, <=, >, >=, ~=)";
constexpr const char* kVersionForms = "PEP 440: 1.2, 1!1.2, 1.2rc1, 1.2.post1, 1.2.dev3, 1.2+local";

VersionSpecifier::Clause parse_clause(const std::string& clause) {
  static const char* const kOps[] = {"===", "~=", "==", "!=", "<=", ">=", "<", ">"};  // longest first
  const auto op = std::find_if(std::begin(kOps), std::end(kOps), [&](const char* o) { return clause.rfind(o, 0) == 0; });
  if (op == std::end(kOps)) throw std::invalid_argument("'" + clause + "' starts with no operator " + kOperators);
  VersionSpecifier::Clause c;
  c.op = *op;
  std::string version = clause.substr(c.op.size());
  std::size_t start = 0;
  while (std::size_t n = space_at(version, start)) start += n;
  version.erase(0, start);
  if (c.op == "===") {
    if (version.empty() || has_space(version) || version.find_first_of(";)") != std::string::npos)
      throw std::invalid_argument("'" + clause + "': === takes one text without spaces, ';' or ')'");
    if (std::any_of(version.begin(), version.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 0x80; }))
      throw std::invalid_argument("'" + clause + "': hostcb compares === texts of ASCII characters only");
    c.version = version;
    c.parsed = Version::parse(version);
    return c;
  }
  c.wildcard = version.size() >= 2 && version.compare(version.size() - 2, 2, ".*") == 0;
  if (c.wildcard) {
    if (c.op != "==" && c.op != "!=")
      throw std::invalid_argument("'" + clause + "': only == and != take a version ending in .*");
    version.resize(version.size() - 2);
  }
  c.version = version;
  c.parsed = parse_exact(version, 0, version.size());
  if (!c.parsed) throw std::invalid_argument("'" + clause + "': '" + version + "' is no version (" + kVersionForms + ")");
  const Version& v = *c.parsed;
  if (c.wildcard && (v.pre_kind >= 0 || v.post || v.dev || v.local))
    throw std::invalid_argument("'" + clause + "': .* follows release numbers only (==1.2.*)");
  if (v.local && c.op != "==" && c.op != "!=")
    throw std::invalid_argument("'" + clause + "': only == and != take a local version (+...)");
  if (c.op == "~=" && v.release.size() < 2)
    throw std::invalid_argument("'" + clause + "': ~= needs at least two numbers (~=13.0)");
  return c;
}

}  // namespace

int compare_numbers(const Number& a, const Number& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

std::optional<Version> Version::parse(const std::string& text) {
  const std::string version = stripped(text);
  return parse_exact(version, 0, version.size());
}

std::string Version::str() const {
  std::string text = epoch == "0" ? "" : epoch + "!";
  for (std::size_t i = 0; i < release.size(); ++i) text += (i ? "." : "") + release[i];
  if (pre_kind >= 0) text += (pre_kind == 0 ? "a" : pre_kind == 1 ? "b" : "rc") + pre_number;
  if (post) text += ".post" + *post;
  if (dev) text += ".dev" + *dev;
  if (local)
    for (std::size_t i = 0; i < local->size(); ++i) text += (i ? "." : "+") + (*local)[i].text;
  return text;
}

int compare(const Version& a, const Version& b) { return compare_keys(key_of(a), key_of(b)); }

std::optional<std::vector<Number>> parse_release(const std::string& text) {
  std::vector<Number> numbers;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = text.find('.', start);
    const std::string part = text.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty() || !std::all_of(part.begin(), part.end(), is_digit)) return std::nullopt;
    numbers.push_back(number_of(part));
    if (dot == std::string::npos) return numbers;
    start = dot + 1;
  }
}

VersionSpecifier VersionSpecifier::parse(const std::string& text) {
  VersionSpecifier spec;
  spec.text_ = text;
  if (stripped(text).empty()) throw std::invalid_argument("an empty version range");
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    spec.clauses_.push_back(parse_clause(stripped(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start))));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (!spec.holds_some_version())
    throw std::invalid_argument("'" + text + "' holds no version: no version satisfies all its clauses");
  return spec;
}

bool VersionSpecifier::contains(const std::string& version) const {
  const std::optional<Version> parsed = Version::parse(version);
  for (const auto& c : clauses_) {
    if (c.op == "===") {
      if (ascii_lower(version) != ascii_lower(c.version)) return false;  // the text as given
    } else if (!parsed || !in(intervals_of(c), *parsed)) {
      return false;
    }
  }
  return true;
}

// Not SpecifierSet.is_unsatisfiable(): the ranges of every clause intersected, and a ===
// text that the other clauses hold.
bool VersionSpecifier::holds_some_version() const {
  Intervals ranges = intervals_of(clauses_.front());
  for (std::size_t i = 1; i < clauses_.size() && !ranges.empty(); ++i) ranges = intersect(ranges, intervals_of(clauses_[i]));
  if (ranges.empty()) return false;
  const Clause* text = nullptr;
  for (const auto& c : clauses_)
    if (c.op == "===") {
      if (text && ascii_lower(text->version) != ascii_lower(c.version)) return false;
      text = &c;
    }
  if (!text) return true;
  for (const auto& c : clauses_)
    if (c.op != "===" && (!text->parsed || !in(intervals_of(c), *text->parsed))) return false;
  return true;
}

}  // namespace hostcb
