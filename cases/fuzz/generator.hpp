// Makes a fuzz program from a seed, a size (its number of operations) and the set of
// operations it draws from. The same seed, size and set give the same program on every
// platform (rng.hpp); OpSet::graph's programs are those of every id published before
// OpSet::all existed. Generation tracks the model's state, so it produces only
// operations that are legal where they stand.
#pragma once
#include <cstdint>

#include "cases/fuzz/program.hpp"

namespace hostcb::fuzz {

Program generate(std::uint64_t seed, int size, OpSet set);

}  // namespace hostcb::fuzz
