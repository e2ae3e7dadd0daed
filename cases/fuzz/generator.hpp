// Makes a fuzz program from a seed and a size (its number of operations). The same seed
// and size give the same program on every platform (rng.hpp). Generation tracks the
// model's state, so it produces only operations that are legal where they stand.
#pragma once
#include <cstdint>

#include "cases/fuzz/program.hpp"

namespace hostcb::fuzz {

Program generate(std::uint64_t seed, int size);

}  // namespace hostcb::fuzz
