// Results as versioned JSON, for tools and for merging many runs into one matrix.
// Format "hostcb-results": see docs/reports.md.
#pragma once
#include <string>

#include "model/result.hpp"

namespace hostcb {

// 2: statuses xfail and xpass, per-result device and expectation, the driver's version string.
// 3: each adapter's "versions" (name -> version of what it drives).
inline constexpr int kResultsFormatVersion = 3;

std::string results_json(const RunReport& report);

}  // namespace hostcb
