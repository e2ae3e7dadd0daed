#include "matrix/matrix_explain.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include "model/errors.hpp"

namespace hostcb {

namespace {

constexpr std::size_t kMaxPatterns = 4;  // per group; a group that needs more is listed instead
constexpr std::size_t kMaxListed = 5;
constexpr std::size_t kMaxConditionsForTriples = 80;  // keeps the search to about 10^5 patterns

// A set of one family's rows, one bit each.
class RowSet {
 public:
  explicit RowSet(std::size_t size = 0) : bits_((size + 63) / 64, 0) {}
  void add(std::size_t i) { bits_[i / 64] |= std::uint64_t{1} << (i % 64); }
  bool has(std::size_t i) const { return (bits_[i / 64] >> (i % 64)) & 1; }
  RowSet operator&(const RowSet& other) const {
    RowSet out = *this;
    for (std::size_t w = 0; w < bits_.size(); ++w) out.bits_[w] &= other.bits_[w];
    return out;
  }
  RowSet without(const RowSet& other) const {
    RowSet out = *this;
    for (std::size_t w = 0; w < bits_.size(); ++w) out.bits_[w] &= ~other.bits_[w];
    return out;
  }
  std::size_t count() const {
    std::size_t n = 0;
    for (auto w : bits_) n += static_cast<std::size_t>(__builtin_popcountll(w));
    return n;
  }
  bool empty() const { return count() == 0; }

 private:
  std::vector<std::uint64_t> bits_;
};

struct Row {
  std::string id;
  std::vector<std::string> statuses;  // one per column; "not run" where it has no cell
  bool differs = false;               // Matrix::differs: the one meaning of "differs"
};

// One family's rows with their axis values, read back from the ids.
struct FamilyRows {
  std::string name;
  std::vector<const Row*> rows;
  std::vector<std::string> axes;                 // in order of first appearance
  std::vector<std::vector<std::string>> values;  // per axis: its distinct values, in order of appearance
  std::vector<std::vector<int>> value_of;         // [row][axis]: an index into values[axis], or kNoValue
};
constexpr int kNoValue = -1;

struct Condition {
  std::size_t axis = 0;  // the conditions of one pattern are on different axes
  std::string text;      // "replays ≥ 2"
  int cost = 1;          // a list of values reads longer than one value, a glob or a bound
  RowSet rows;
};

struct Pattern {
  std::vector<const Condition*> conditions;
  RowSet rows;
  int cost = 0;
};

bool is_count_axis(const std::vector<std::string>& values) {
  for (const auto& v : values)
    if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos) return false;
  return true;
}

FamilyRows family_rows(const std::string& name, std::vector<const Row*> rows) {
  FamilyRows f;
  f.name = name;
  f.rows = std::move(rows);
  for (const Row* row : f.rows) {
    std::vector<int> values(f.axes.size(), kNoValue);
    std::size_t at = row->id.find('/');
    while (at != std::string::npos) {
      std::size_t end = row->id.find('/', at + 1);
      std::string part = row->id.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
      at = end;
      std::size_t eq = part.find('=');
      if (eq == std::string::npos) continue;  // not an axis: only the family and listings describe it
      std::string axis = part.substr(0, eq), value = part.substr(eq + 1);
      std::size_t a = std::find(f.axes.begin(), f.axes.end(), axis) - f.axes.begin();
      if (a == f.axes.size()) {  // a new axis: the rows before this one have no value on it
        f.axes.push_back(axis);
        f.values.emplace_back();
        values.push_back(kNoValue);
        for (auto& earlier : f.value_of) earlier.push_back(kNoValue);
      }
      auto& known = f.values[a];
      std::size_t v = std::find(known.begin(), known.end(), value) - known.begin();
      if (v == known.size()) known.push_back(value);
      values[a] = static_cast<int>(v);
    }
    f.value_of.push_back(values);
  }
  return f;
}

template <typename Predicate>
Condition condition(const FamilyRows& f, std::size_t axis, std::string text, int cost, Predicate matches) {
  Condition c{axis, std::move(text), cost, RowSet(f.rows.size())};
  for (std::size_t r = 0; r < f.rows.size(); ++r)
    if (f.value_of[r][axis] != kNoValue && matches(f.values[axis][f.value_of[r][axis]])) c.rows.add(r);
  return c;
}

// What any group of the family may be described by: each value; each prefix up to an '_'
// that several values share (forward=cuda_bindings_*); for a count axis, each bound that is
// not simply its lowest or highest value.
std::vector<Condition> family_conditions(const FamilyRows& f) {
  std::vector<Condition> out;
  for (std::size_t a = 0; a < f.axes.size(); ++a) {
    const auto& values = f.values[a];
    for (const auto& v : values)
      out.push_back(condition(f, a, f.axes[a] + "=" + v, 1, [&](const std::string& x) { return x == v; }));
    std::map<std::vector<std::string>, std::string> glob_of;  // the values a glob matches -> its longest prefix
    for (const auto& v : values)
      for (std::size_t u = v.find('_'); u != std::string::npos && u + 1 < v.size(); u = v.find('_', u + 1)) {
        std::string prefix = v.substr(0, u + 1);
        std::vector<std::string> matched;
        for (const auto& x : values)
          if (x.compare(0, prefix.size(), prefix) == 0) matched.push_back(x);
        std::string& best = glob_of[matched];
        if (matched.size() >= 2 && matched.size() < values.size() && prefix.size() > best.size()) best = prefix;
      }
    for (const auto& [matched, prefix] : glob_of)
      if (!prefix.empty())
        out.push_back(condition(f, a, f.axes[a] + "=" + prefix + "*", 1, [&, p = prefix](const std::string& x) {
          return x.compare(0, p.size(), p) == 0;
        }));
    if (!is_count_axis(values)) continue;
    std::vector<long long> numbers;
    for (const auto& v : values) numbers.push_back(std::stoll(v));
    std::sort(numbers.begin(), numbers.end());
    for (std::size_t i = 1; i + 1 < numbers.size(); ++i) {  // ≥ lowest is everything; ≥ highest is one value
      long long n = numbers[i];
      out.push_back(condition(f, a, str(f.axes[a], " ≥ ", n), 1, [n](const std::string& x) { return std::stoll(x) >= n; }));
      out.push_back(condition(f, a, str(f.axes[a], " ≤ ", n), 1, [n](const std::string& x) { return std::stoll(x) <= n; }));
    }
  }
  return out;
}

// For one group, per axis: the list of its values among the group's rows, and the list of
// values all of whose rows are in the group (replays in {2, 100}), where a list is neither
// one value nor every value.
std::vector<Condition> group_conditions(const FamilyRows& f, const RowSet& group) {
  constexpr std::size_t kMaxListedValues = 4;
  std::vector<Condition> out;
  for (std::size_t a = 0; a < f.axes.size(); ++a) {
    std::vector<std::string> in_group, only_in_group;
    for (std::size_t v = 0; v < f.values[a].size(); ++v) {
      bool some = false, all = true;
      for (std::size_t r = 0; r < f.rows.size(); ++r) {
        if (f.value_of[r][a] != static_cast<int>(v)) continue;
        if (group.has(r))
          some = true;
        else
          all = false;
      }
      if (some) in_group.push_back(f.values[a][v]);
      if (some && all) only_in_group.push_back(f.values[a][v]);
    }
    for (const auto* list : {&in_group, &only_in_group}) {
      if (list->size() < 2 || list->size() == f.values[a].size() || list->size() > kMaxListedValues) continue;
      if (list == &only_in_group && only_in_group == in_group) continue;  // the same list twice
      std::string text = f.axes[a] + " in {";
      for (std::size_t i = 0; i < list->size(); ++i) text += (i ? ", " : "") + (*list)[i];
      out.push_back(condition(f, a, text + "}", 2, [&](const std::string& x) {
        return std::find(list->begin(), list->end(), x) != list->end();
      }));
    }
  }
  return out;
}

// Every conjunction of one to three conditions on different axes that matches some of the
// group's rows and no other row of the family.
std::vector<Pattern> exact_patterns(const std::vector<Condition>& conditions, const RowSet& group) {
  std::vector<const Condition*> useful;
  for (const auto& c : conditions)
    if (!(c.rows & group).empty()) useful.push_back(&c);
  std::vector<Pattern> out;
  auto consider = [&](std::vector<const Condition*> parts) {
    RowSet rows = parts[0]->rows;
    int cost = 0;
    for (const Condition* c : parts) {
      rows = rows & c->rows;
      cost += c->cost;
    }
    if (!rows.empty() && rows.without(group).empty()) out.push_back({std::move(parts), rows, cost});
  };
  for (std::size_t i = 0; i < useful.size(); ++i) {
    consider({useful[i]});
    for (std::size_t j = i + 1; j < useful.size(); ++j) {
      if (useful[j]->axis == useful[i]->axis) continue;
      consider({useful[i], useful[j]});
      if (useful.size() > kMaxConditionsForTriples) continue;
      for (std::size_t k = j + 1; k < useful.size(); ++k)
        if (useful[k]->axis != useful[i]->axis && useful[k]->axis != useful[j]->axis)
          consider({useful[i], useful[j], useful[k]});
    }
  }
  return out;
}

// Greedy set cover: the pattern that matches most of the rows still unexplained (the
// simplest among equals, then the one overlapping the lines before it least), until every
// row is matched; nothing when that takes too many.
std::vector<Pattern> cover(const std::vector<Pattern>& patterns, const RowSet& group) {
  std::vector<Pattern> chosen;
  RowSet left = group;
  while (!left.empty()) {
    if (chosen.size() == kMaxPatterns) return {};
    const Pattern* best = nullptr;
    std::size_t best_gain = 0;
    for (const auto& p : patterns) {
      std::size_t gain = (p.rows & left).count();
      bool better = gain > best_gain ||
                    (best && gain == best_gain && (p.cost < best->cost ||
                                                   (p.cost == best->cost && p.rows.count() < best->rows.count())));
      if (better) {
        best = &p;
        best_gain = gain;
      }
    }
    if (!best) return {};
    chosen.push_back(*best);
    left = left.without(best->rows);
  }
  return chosen;
}

std::string pattern_text(Pattern p) {
  std::sort(p.conditions.begin(), p.conditions.end(),
            [](const Condition* a, const Condition* b) { return a->axis < b->axis; });  // in the id's order
  std::string text;
  for (const Condition* c : p.conditions) text += (text.empty() ? "" : " and ") + c->text;
  return text;
}

// "error in #1 #2, passed in #3": each status with its columns, in column order.
std::string outcome_text(const std::vector<std::string>& statuses) {
  std::vector<std::pair<std::string, std::string>> parts;
  for (std::size_t c = 0; c < statuses.size(); ++c) {
    auto it = std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == statuses[c]; });
    if (it == parts.end()) it = parts.insert(parts.end(), {statuses[c], statuses[c] + " in"});
    it->second += str(" #", c + 1);
  }
  std::string text;
  for (const auto& p : parts) text += (text.empty() ? "" : ", ") + p.second;
  return text;
}

// One family: a line per pattern, each group's rows listed where no few patterns fit.
void explain_family(const FamilyRows& f, std::vector<DiffLine>& lines) {
  std::map<std::vector<std::string>, RowSet> groups;  // statuses across the columns -> rows
  std::vector<std::vector<std::string>> order;
  for (std::size_t r = 0; r < f.rows.size(); ++r) {
    const auto& statuses = f.rows[r]->statuses;
    if (!f.rows[r]->differs) continue;
    auto [it, added] = groups.try_emplace(statuses, RowSet(f.rows.size()));
    if (added) order.push_back(statuses);
    it->second.add(r);
  }
  if (groups.empty()) return;
  std::vector<Condition> shared = family_conditions(f);
  for (const auto& statuses : order) {
    const RowSet& group = groups.at(statuses);
    DiffLine base;
    base.families = {f.name};
    base.outcome = outcome_text(statuses);
    if (group.count() == f.rows.size()) {  // the whole family
      base.rows = group.count();
      lines.push_back(base);
      continue;
    }
    std::vector<Condition> conditions = shared;
    for (auto& c : group_conditions(f, group)) conditions.push_back(std::move(c));
    std::vector<Pattern> chosen = cover(exact_patterns(conditions, group), group);
    for (const auto& p : chosen) {
      DiffLine line = base;
      line.pattern = pattern_text(p);
      line.rows = p.rows.count();
      lines.push_back(line);
    }
    if (!chosen.empty()) continue;
    base.rows = group.count();
    for (std::size_t r = 0; r < f.rows.size(); ++r)
      if (group.has(r)) {
        if (base.listed.size() < kMaxListed)
          base.listed.push_back(f.rows[r]->id);
        else
          ++base.unlisted;
      }
    lines.push_back(base);
  }
}

}  // namespace

std::string DiffLine::text() const {
  std::string names;
  for (const auto& f : families) names += (names.empty() ? "" : ", ") + f;
  std::string scenarios = str(" (", rows, rows == 1 ? " scenario)" : " scenarios)");
  if (!listed.empty()) {
    std::string ids;
    for (const auto& id : listed) ids += (ids.empty() ? "" : ", ") + id;
    if (unlisted) ids += str(" and ", unlisted, " more");
    return str(names, scenarios, ": ", outcome, ": ", ids);
  }
  return str(names, ": ", pattern.empty() ? "every scenario" : pattern, scenarios, ": ", outcome);
}

DiffExplanation explain_differences(const Matrix& m) {
  std::vector<Row> rows;
  rows.reserve(m.scenarios.size());
  std::vector<std::string> family_order;
  std::map<std::string, std::vector<const Row*>> by_family;
  for (const auto& id : m.scenarios) {
    Row row{id, {}, m.differs(id)};
    for (std::size_t c = 0; c < m.columns.size(); ++c) {
      const MatrixCell* cell = m.cell(id, c);
      row.statuses.push_back(cell ? status_name(cell->status) : "not run");
    }
    rows.push_back(std::move(row));
  }
  for (const auto& row : rows) {
    std::string family = row.id.substr(0, row.id.find('/'));
    if (!by_family.count(family)) family_order.push_back(family);
    by_family[family].push_back(&row);
  }

  std::vector<DiffLine> lines;
  for (const auto& family : family_order) explain_family(family_rows(family, by_family.at(family)), lines);

  // Families that differ the same way, by the same pattern (or as a whole), share a line:
  // each pattern is exact within its family, so it stays exact across them.
  std::vector<DiffLine> merged;
  for (auto& line : lines) {
    auto same = std::find_if(merged.begin(), merged.end(), [&](const DiffLine& earlier) {
      return line.listed.empty() && earlier.listed.empty() && earlier.pattern == line.pattern &&
             earlier.outcome == line.outcome;
    });
    if (same == merged.end()) {
      merged.push_back(std::move(line));
    } else {
      same->families.push_back(line.families[0]);
      same->rows += line.rows;
    }
  }
  std::stable_sort(merged.begin(), merged.end(), [](const DiffLine& a, const DiffLine& b) { return a.rows > b.rows; });

  DiffExplanation out;
  for (const auto& row : rows) out.rows += row.differs;
  for (auto& line : merged) {
    if (out.lines.size() < kMaxDiffLines) {
      out.lines.push_back(std::move(line));
    } else {
      ++out.lines_left_off;
      out.rows_left_off += line.rows;
    }
  }
  return out;
}

}  // namespace hostcb
