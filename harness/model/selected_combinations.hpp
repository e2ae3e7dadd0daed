// Which combinations of one family's axes a filter selects, counted before any is made.
//
// An id is the family's name, then "/axis=value" for each axis in order, so the filter's
// globs (glob_set.hpp) can be run over one axis's values at a time: a combination is
// selected when a positive glob matches its whole id and no negative one does. Prefixes
// that leave the globs in the same state select the same continuations, so each such
// state is counted once per axis: `--axis replays=1-1000000 --axis streams=1-1000000`
// costs a million steps per state, not 10^12 combinations, and a family no positive glob
// can reach costs one step. The count stops just past `limit`.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/axes.hpp"
#include "model/glob_set.hpp"

namespace hostcb {

class SelectedCombinations {
 public:
  // `poll` is called now and then (every few thousand values); it may throw to stop.
  SelectedCombinations(const std::string& family, const std::vector<Axis>& axes, const GlobSet& positive,
                       const GlobSet& negative, std::uint64_t limit, const std::function<void()>& poll);
  // How many combinations are selected; limit + 1 means "more than the limit".
  std::uint64_t count() const { return over_limit_ ? limit_ + 1 : nodes_[root_].count; }
  bool over_limit() const { return over_limit_; }
  // Each selected combination, in expand()'s order (the last axis turns fastest). Only
  // when !over_limit().
  void for_each(const std::function<void(Params)>& visit) const;

 private:
  struct Node {
    std::uint64_t count = 0;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> children;  // (value index, node), count > 0
  };
  struct Over {};  // thrown past the limit: nothing more is counted
  std::uint32_t build(std::size_t level, const GlobSet::State& pos, const GlobSet::State& neg);
  void visit_from(std::uint32_t node, std::size_t level, std::vector<std::uint32_t>& values,
                  const std::function<void(Params)>& visit) const;

  const std::vector<Axis>& axes_;
  const GlobSet &positive_, &negative_;
  std::uint64_t limit_;
  const std::function<void()>& poll_;
  std::vector<Node> nodes_;
  std::vector<std::map<std::pair<GlobSet::State, GlobSet::State>, std::uint32_t>> memo_;  // per level
  std::uint32_t root_ = 0;
  bool over_limit_ = false;
};

}  // namespace hostcb
