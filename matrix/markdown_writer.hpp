// The driver matrix as Markdown, for a CI summary or a chat message: what changed first,
// then the environments and every scenario. Every scenario id and message is escaped.
#pragma once
#include <string>

#include "matrix/matrix_document.hpp"

namespace hostcb {

std::string matrix_markdown(const MatrixReport& report);

// Text safe inside a Markdown table cell: Markdown's punctuation backslash-escaped (no live
// link or image), HTML characters as entities (renderers pass raw HTML through), control
// characters shown as \n, \t, \xNN (a newline would end the row).
std::string markdown_cell(const std::string& text);

}  // namespace hostcb
