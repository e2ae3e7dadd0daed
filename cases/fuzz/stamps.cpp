#include "cases/fuzz/stamps.hpp"

#include <algorithm>

namespace hostcb::fuzz {

std::optional<std::string> check_stamps(const Contents& held, int round, const std::vector<std::uint64_t>& base,
                                        const StampSnapshot& seen) {
  const auto at = std::find(held.sites.begin(), held.sites.end(), seen.site);
  if (at == held.sites.end()) return "h" + std::to_string(seen.site) + " ran, but the exec holds no such host node";
  const int host = static_cast<int>(at - held.sites.begin());
  const std::uint64_t r = static_cast<std::uint64_t>(round);
  for (std::size_t cell = 0; cell < seen.cells.size() && cell < base.size(); ++cell) {
    std::uint64_t per_launch = 0, before = 0, after = 0;
    for (std::size_t k = 0; k < held.kernels.size(); ++k) {
      if (held.kernels[k] != static_cast<int>(cell)) continue;
      ++per_launch;
      const int kernel = static_cast<int>(k);
      for (auto [a, b] : held.kernel_then_host) before += a == kernel && b == host;
      for (auto [a, b] : held.host_then_kernel) after += a == host && b == kernel;
    }
    const std::uint64_t low = base[cell] + r * per_launch + before;
    const std::uint64_t high = base[cell] + (r + 1) * per_launch - after;
    const std::uint64_t value = seen.cells[cell];
    if (value >= low && value <= high) continue;
    const std::string h = "h" + std::to_string(seen.site), k = "k" + std::to_string(cell);
    const std::string why = value < low && before ? std::to_string(before) + " of its nodes run before " + h
                            : value > high && after ? std::to_string(after) + " of its nodes run after " + h
                            : per_launch ? "it runs " + std::to_string(per_launch) + " time(s) a launch"
                                         : "no node of this exec counts into it";
    return h + " saw kernel " + k + " at " + std::to_string(value) + "; expected " +
           (low == high ? std::to_string(low) : std::to_string(low) + " to " + std::to_string(high)) + " (" + why +
           ")";
  }
  return std::nullopt;
}

}  // namespace hostcb::fuzz
