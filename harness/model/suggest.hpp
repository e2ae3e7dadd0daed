// "Did you mean ...?" for mistyped subcommands and options.
#pragma once
#include <string>
#include <vector>

namespace hostcb {

// The candidate closest to `word` by edit distance, if it is close enough to be a typo
// (at most a third of the word's length, at least 1); empty otherwise.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace hostcb
