// The driver matrix as one self-contained HTML page (inline CSS, no script, no network;
// opens from a file), leading with what changed. Every scenario id and message is escaped.
#pragma once
#include <string>

#include "matrix/matrix_document.hpp"

namespace hostcb {

std::string matrix_html(const MatrixReport& report);

}  // namespace hostcb
