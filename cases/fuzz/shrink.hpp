// Shrinking a failing fuzz program: cutting operations, nodes and launches while it still
// fails the same way, to a program where no single cut keeps the failure.
//
// What is cut is written as one word, the value of the fuzz family's `cut` axis, so every
// candidate is an ordinary scenario id (reproducible, pinnable): "none", or dot-separated
//   7     operation 7 is cut
//   3n2   node n2 of the build in operation 3 is cut
//   9r1   operation 9 launches once (r: how many times), not as generated
// Numbers are the generated program's (names never change). An operation left naming
// something that was cut is dropped with it (legalize), so any cut gives a legal program.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cases/fuzz/program.hpp"

namespace hostcb::fuzz {

struct Cuts {
  std::set<int> ops;
  std::set<std::pair<int, int>> nodes;  // (op, item name)
  std::map<int, int> times;             // op -> launches
  bool operator==(const Cuts& other) const {
    return ops == other.ops && nodes == other.nodes && times == other.times;
  }
};

std::string cuts_word(const Cuts& cuts);
// Throws std::invalid_argument on a malformed word.
Cuts parse_cuts(const std::string& word);

// The generated program with the cuts made, then legalized.
Program apply_cuts(const Program& program, const Cuts& cuts);

// Shrinks from `start` while `still_fails` says a candidate fails the same way; the
// predicate may be called a few hundred times. Returns the smallest cuts found.
using StillFails = std::function<bool(const Cuts&)>;
Cuts shrink(const Program& program, const Cuts& start, const StillFails& still_fails);

// The same search, handing candidates over up to `window` at a time (to run side by side):
// `first_failing` returns the index of the first of them, in order, that still fails, or
// nullopt. The cuts found are those of the one-at-a-time search, whatever `window` is: a
// window holds only candidates made from the same best cuts, and the first that fails wins.
using FirstFailing = std::function<std::optional<std::size_t>(const std::vector<Cuts>&)>;
Cuts shrink(const Program& program, const Cuts& start, std::size_t window, const FirstFailing& first_failing);

}  // namespace hostcb::fuzz
