#include "model/glob_set.hpp"

namespace hostcb {

namespace {

bool has(const GlobSet::State& s, std::size_t q) { return (s[q / 64] >> (q % 64)) & 1; }
void put(GlobSet::State& s, std::size_t q) { s[q / 64] |= std::uint64_t{1} << (q % 64); }

}  // namespace

GlobSet::GlobSet(const std::vector<std::string>& globs) {
  for (const auto& glob : globs) {
    for (char c : glob) {
      chars_.push_back(c);
      end_.push_back(false);
    }
    chars_.push_back('\0');
    end_.push_back(true);
  }
  star_tail_.assign(chars_.size(), false);
  for (std::size_t q = chars_.size(); q-- > 0;)  // from the end: a '*' with only '*' after it
    star_tail_[q] = !end_[q] && chars_[q] == '*' && (end_[q + 1] || star_tail_[q + 1]);
}

void GlobSet::close(State& state) const {
  // Ascending, so that a run of '*' closes in one pass; only the bits that are set.
  for (std::size_t w = 0; w < state.size(); ++w) {
    std::uint64_t seen = 0;
    while (const std::uint64_t bits = state[w] & ~seen) {
      const std::uint64_t lowest = bits & (~bits + 1);
      seen |= lowest;
      const std::size_t q = w * 64 + static_cast<std::size_t>(__builtin_ctzll(lowest));
      if (!end_[q] && chars_[q] == '*') put(state, q + 1);
    }
  }
}

GlobSet::State GlobSet::start() const {
  State state((chars_.size() + 63) / 64, 0);
  for (std::size_t q = 0; q < chars_.size(); ++q)
    if (q == 0 || end_[q - 1]) put(state, q);  // each glob's first position
  close(state);
  return state;
}

GlobSet::State GlobSet::step(const State& state, const std::string& text) const {
  State now = state;
  for (char c : text) {
    State next(now.size(), 0);
    bool any = false;
    for (std::size_t w = 0; w < now.size(); ++w) {
      for (std::uint64_t bits = now[w]; bits; bits &= bits - 1) {
        const std::size_t q = w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
        if (end_[q]) continue;
        if (chars_[q] == '*') {
          put(next, q);
          any = true;
        } else if (chars_[q] == '?' || chars_[q] == c) {
          put(next, q + 1);
          any = true;
        }
      }
    }
    if (any) close(next);
    now = std::move(next);
    if (!any) break;  // dead: nothing more can come back
  }
  return now;
}

bool GlobSet::dead(const State& state) const {
  for (auto word : state)
    if (word) return false;
  return true;
}

bool GlobSet::matches(const State& state) const {
  for (std::size_t q = 0; q < chars_.size(); ++q)
    if (end_[q] && has(state, q)) return true;
  return false;
}

bool GlobSet::matches_any_continuation(const State& state) const {
  for (std::size_t q = 0; q < chars_.size(); ++q)
    if (star_tail_[q] && has(state, q)) return true;
  return false;
}

}  // namespace hostcb
