// The driver matrix as Markdown (for a CI summary or a chat message) and as one
// self-contained HTML page (inline CSS, no script, no network; opens from a file). Both
// lead with what changed. Every scenario id and message is escaped.
#pragma once
#include <string>
#include <vector>

#include "reports/matrix.hpp"

namespace hostcb {

struct MatrixReport {
  Matrix matrix;
  bool has_previous = false;       // a previous night's matrix was given
  std::string previous_source;     // its path
  std::vector<MatrixChange> changes;
  std::string generated_utc;
};

std::string matrix_markdown(const MatrixReport& report);
std::string matrix_html(const MatrixReport& report);

// Text safe inside a Markdown table cell: Markdown's punctuation backslash-escaped (no live
// link or image), HTML characters as entities (renderers pass raw HTML through), control
// characters shown as \n, \t, \xNN (a newline would end the row).
std::string markdown_cell(const std::string& text);

}  // namespace hostcb
