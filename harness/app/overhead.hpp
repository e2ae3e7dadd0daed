// What the harness itself costs per graph launch: the same one-host-node graph launched
// with a bare host function (one relaxed atomic add, no probe, no channel) and with the
// probe's entry, interleaved round by round in one process so drift hits both alike.
#pragma once
#include <string>
#include <vector>

namespace hostcb {

struct OverheadRow {
  std::string mode;            // "pipelined" (sync once per round) or "sync_each" (sync every launch)
  double bare_us = 0;          // median over rounds of per-launch microseconds
  double harness_us = 0;
  double ratio() const { return bare_us > 0 ? harness_us / bare_us : 0; }
};

struct OverheadReport {
  std::vector<OverheadRow> rows;
  std::vector<std::string> problems;  // the probe's own verdict on the calls it counted
};

// Needs a usable GPU; throws CudaError otherwise.
OverheadReport measure_overhead(int device, int launches_per_round, int rounds);

}  // namespace hostcb
