// Results as versioned JSON, for tools and for merging many runs into one matrix.
// Format "hostcb-results", format_version 1: see README.md ("Reports").
#pragma once
#include <string>

#include "model/result.hpp"

namespace hostcb {

// 2: statuses xfail and xpass, per-result device and expectation, the driver's version string.
inline constexpr int kResultsFormatVersion = 2;

std::string results_json(const RunReport& report);

}  // namespace hostcb
