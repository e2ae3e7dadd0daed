// The fuzz family's random numbers: splitmix64, written out here so that one seed gives
// one program on every compiler, library and platform (std:: distributions differ).
#pragma once
#include <cstdint>

namespace hostcb::fuzz {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // A whole number in [0, n); n > 0. The modulo's bias is irrelevant here, and portable.
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  int between(int lo, int hi) { return lo + below(hi - lo + 1); }  // [lo, hi]
  bool chance(int percent) { return below(100) < percent; }

 private:
  std::uint64_t state_;
};

}  // namespace hostcb::fuzz
