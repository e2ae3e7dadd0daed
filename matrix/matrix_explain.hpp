// What differs across a matrix's columns, in a few lines a reader takes in at once:
//   replay: forward=cuda_bindings_* and replays ≥ 2 (72 scenarios): error in #1 #2, passed in #3
// The rows whose status is not the same in every column are grouped by how they differ (their
// statuses across the columns); each group is described by the fewest axis patterns (from
// the ids' `axis=value` parts) that match exactly its rows among its family's rows.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"

namespace hostcb {

struct DiffLine {
  std::vector<std::string> families;  // one, or several whose every scenario differs the same way
  std::string pattern;                // "forward=cuda_bindings_* and replays ≥ 2"; empty: every scenario
  std::size_t rows = 0;
  std::string outcome;  // "error in #1 #2, passed in #3, not run in #4"
  // No pattern within the limits: the rows themselves, the first few, and how many more.
  std::vector<std::string> listed;
  std::size_t unlisted = 0;

  std::string text() const;  // the whole line, plain text: writers escape it
};

struct DiffExplanation {
  std::size_t rows = 0;  // rows whose status is not the same in every column
  std::vector<DiffLine> lines;  // most rows first
  std::size_t lines_left_off = 0, rows_left_off = 0;  // beyond kMaxLines
};

inline constexpr std::size_t kMaxDiffLines = 12;

DiffExplanation explain_differences(const Matrix& matrix);

}  // namespace hostcb
