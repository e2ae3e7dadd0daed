// The kernels around a host function: what each kernel's counter must read while the host
// function runs, in a launch that ran alone (nothing else on the device).
//
// Every kernel node adds 1 to its counter cell. During round r (0-based) of launching an
// exec n times on one stream, a host node h sees, for each cell c that m of the exec's
// kernel nodes count into:
//   at least base + r*m + (those of the m that the graph runs before h)
//   at most  base + (r+1)*m - (those of the m that the graph runs after h)
// where base is the cell before the launch. Launches on one stream run one after another,
// so a cell no kernel of the exec counts into stays at base. A host function called late
// (after the kernels it precedes, or in the next launch) or early breaks a bound.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cases/fuzz/model.hpp"

namespace hostcb::fuzz {

// What one host call saw: its site, and every cell as it read them.
struct StampSnapshot {
  int site = -1;
  std::vector<std::uint64_t> cells;
};

// The first bound a call breaks, as one line; nullopt when every cell is in bounds.
// `round`: 0-based launch of the exec within the op; `base`: each cell before the launch.
std::optional<std::string> check_stamps(const Contents& held, int round, const std::vector<std::uint64_t>& base,
                                        const StampSnapshot& seen);

}  // namespace hostcb::fuzz
