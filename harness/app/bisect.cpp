#include "app/bisect.hpp"

#include <string>

namespace hostcb {

const char* bisect_verdict_name(BisectVerdict verdict) {
  switch (verdict) {
    case BisectVerdict::good: return "good";
    case BisectVerdict::bad: return "bad";
    case BisectVerdict::unknown: return "unknown";
  }
  return "unknown";
}

namespace {

class Judging {
 public:
  Judging(std::size_t count, const std::function<VersionOutcome(std::size_t)>& judge) : judge_(judge) {
    result_.outcomes.resize(count);
  }
  BisectVerdict at(std::size_t i) {
    if (!result_.outcomes[i]) {
      result_.outcomes[i] = judge_(i);
      result_.order.push_back(i);
    }
    return result_.outcomes[i]->verdict;
  }
  bool known(std::size_t i) const {
    return result_.outcomes[i] && result_.outcomes[i]->verdict != BisectVerdict::unknown;
  }
  Bisection& result() { return result_; }

 private:
  const std::function<VersionOutcome(std::size_t)>& judge_;
  Bisection result_;
};

std::string changes_word(std::size_t n) { return std::to_string(n) + (n == 1 ? " change" : " changes"); }

// The first index from `from` toward `to` (inclusive, stepping by `step`) that can be judged.
std::optional<std::size_t> first_judged(Judging& j, std::size_t from, std::size_t to, int step) {
  for (std::size_t i = from;; i += step) {
    if (j.at(i) != BisectVerdict::unknown) return i;
    if (i == to) return std::nullopt;
  }
}

}  // namespace

Bisection bisect_versions(std::size_t count, const std::function<VersionOutcome(std::size_t)>& judge, bool all) {
  Judging j(count, judge);
  Bisection& r = j.result();
  if (count < 2) {
    r.why_none = "fewer than two versions";
    return r;
  }
  if (all) {
    std::vector<std::pair<std::size_t, std::size_t>> changes;
    std::optional<std::size_t> last;
    for (std::size_t i = 0; i < count; ++i) {
      if (j.at(i) == BisectVerdict::unknown) continue;
      if (last && j.at(*last) != j.at(i)) changes.emplace_back(*last, i);
      last = i;
    }
    if (changes.size() == 1) {
      r.before = changes[0].first, r.after = changes[0].second;
      r.between_unknown = r.after.value() - r.before.value() > 1;
    } else if (changes.empty()) {
      r.why_none = last ? std::string("every version that could be judged is ") + bisect_verdict_name(j.at(*last))
                        : "no version could be judged";
    } else {
      r.why_none = changes_word(changes.size()) + " between the versions, not one";
    }
    return r;
  }
  // The ends, or the nearest to each that can be judged.
  const std::optional<std::size_t> low = first_judged(j, 0, count - 1, 1);
  if (!low) {
    r.why_none = "no version could be judged";
    return r;
  }
  const std::optional<std::size_t> high = first_judged(j, count - 1, *low, -1);
  if (*high == *low) {
    r.why_none = "only one version could be judged";
    return r;
  }
  if (j.at(*low) == j.at(*high)) {
    r.why_none = std::string("the oldest and the newest version that could be judged are both ") +
                 bisect_verdict_name(j.at(*low)) + " (--all runs every version)";
    return r;
  }
  // Halve [lo, hi], whose ends differ, until nothing between them is left to judge.
  std::size_t lo = *low, hi = *high;
  for (;;) {
    std::optional<std::size_t> pick;  // the unjudged version nearest the middle
    const std::size_t middle = lo + (hi - lo) / 2;
    for (std::size_t d = 0; !pick && d <= hi - lo; ++d) {
      for (std::size_t i : {middle + d, middle - d})
        if (i > lo && i < hi && !r.outcomes[i]) {
          pick = i;
          break;
        }
      if (d >= middle - lo && middle + d >= hi) break;
    }
    if (!pick) break;
    const BisectVerdict v = j.at(*pick);
    if (v == j.at(lo)) lo = *pick;
    else if (v == j.at(hi)) hi = *pick;
  }
  r.before = lo, r.after = hi;
  r.between_unknown = hi - lo > 1;
  return r;
}

}  // namespace hostcb
