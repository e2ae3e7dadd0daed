// The matrix in a few lines, for a pull-request comment or a CI step summary (GitHub caps
// one at 1 MiB, a comment at 64 KiB): the verdict, the counts per environment and per
// layer, the "what differs" lines and the first failures. Bounded whatever the input:
// every list and every id or message in it is cut to a fixed length (kSummaryMaxBytes).
#pragma once
#include <cstddef>
#include <string>

#include "matrix/matrix_document.hpp"

namespace hostcb {

// The most a summary holds, and what its parts are cut to.
inline constexpr std::size_t kSummaryMaxEnvironments = 40;
inline constexpr std::size_t kSummaryMaxDiffLines = 20;
inline constexpr std::size_t kSummaryMaxFailures = 10;
inline constexpr std::size_t kSummaryMaxText = 240;  // characters of an id, a message or a line
inline constexpr std::size_t kSummaryMaxBytes = 60 * 1024;

std::string matrix_summary(const MatrixReport& report);

}  // namespace hostcb
