// Several filter globs run together over text that arrives piece by piece: the family's
// name, then "/axis=value" for one axis at a time. glob_match() needs the whole id; this
// lets the planner ask, after a prefix, whether any glob can still match and whether one
// already matches everything that may follow, so that it counts and expands only the
// combinations a filter can select (selected_combinations.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hostcb {

class GlobSet {
 public:
  // Which positions of which globs the text so far can have reached: a set of bits.
  using State = std::vector<std::uint64_t>;

  explicit GlobSet(const std::vector<std::string>& globs);
  State start() const;
  State step(const State& state, const std::string& text) const;
  bool dead(const State& state) const;     // no glob can match any continuation
  bool matches(const State& state) const;  // a glob matches the text so far, whole
  bool matches_any_continuation(const State& state) const;  // one reached a run of only '*'

 private:
  void close(State& state) const;  // a '*' may match nothing: its next position too
  std::vector<char> chars_;        // each glob's characters, then '\0' at its end position
  std::vector<bool> end_, star_tail_;
};

}  // namespace hostcb
