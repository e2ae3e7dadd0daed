// The driver matrix: many runs' JSON results (one per driver, runtime, GPU and host) as
// one table, scenarios down and environments across, and what changed: scenarios that
// pass in one environment and fail in another, and cells that changed since the previous
// night's matrix. `hostcb report` builds it; matrix_writer.hpp writes it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "model/status.hpp"

namespace hostcb {

struct MatrixColumn {
  std::string key;    // joins a column with the previous night's: host, GPU, device, runtime
  std::string label;  // "580.159.04 · CUDA 13.0 · NVIDIA H200 · host"
  std::string driver, cuda_by_driver, runtime, gpu, host, device, source, started, git_revision;
};

struct MatrixCell {
  Status status = Status::skipped;
  std::string message;  // the failure, error, skip reason or expectation: one line
};

struct MatrixChange {
  std::string id;
  std::size_t column = 0;  // index into the new matrix's columns
  Status before, after;
  std::string message;  // the new cell's
};

struct Matrix {
  std::vector<MatrixColumn> columns;
  std::vector<std::string> scenarios;  // in order of first appearance
  std::map<std::string, std::map<std::size_t, MatrixCell>> cells;  // id -> column -> cell

  const MatrixCell* cell(const std::string& id, std::size_t column) const;
  // Scenarios that passed in some environment and failed, errored or xpassed in another.
  std::vector<std::string> differing() const;
};

// Adds the results in one `hostcb run --json` file (format 1 or 2): one column per device
// it ran on. Throws UsageError naming the file for anything unreadable.
void add_results_file(Matrix& matrix, const std::string& path);

// Cells whose status differs from the previous matrix (same scenario, same column key).
std::vector<MatrixChange> changes_since(const Matrix& previous, const Matrix& now);

// The matrix as JSON ("hostcb-matrix" format 1), and back: tomorrow's --previous.
std::string matrix_json(const Matrix& matrix);
Matrix load_matrix_json(const std::string& path);

}  // namespace hostcb
