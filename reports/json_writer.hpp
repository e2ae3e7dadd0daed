// Results as versioned JSON, for tools and for merging many runs into one matrix.
// Format "hostcb-results", format_version 1: see README.md ("Reports").
#pragma once
#include <string>

#include "result.hpp"

namespace hostcb {

inline constexpr int kResultsFormatVersion = 1;

std::string results_json(const RunReport& report);

}  // namespace hostcb
