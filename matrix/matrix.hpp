// The driver matrix: many runs' JSON results (one per driver, runtime, GPU and host) as
// one table, scenarios down and environments across, and what changed: scenarios that
// pass in one environment and fail in another, and cells that changed since the previous
// night's matrix. `hostcb report` builds it; matrix_document.hpp says what a page of it
// says, and markdown_writer.hpp and html_writer.hpp lay that out.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/status.hpp"

namespace hostcb {

// A forwarding layer a run loaded (--adapter), as its results file names it.
struct MatrixLayer {
  std::string name, describe;
  std::vector<std::pair<std::string, std::string>> versions;  // empty in format 1 and 2 files
};

struct MatrixColumn {
  // Joins a column with the previous night's: host, GPU, device, runtime and each loaded
  // layer's name and versions (its describe text where it has none). Not the driver: a new
  // driver on the same machine is a change, not a new environment.
  std::string key;
  std::string label;  // "580.159.04 · CUDA 13.0 · NVIDIA H200 · host · cuda-bindings 13.3.1"
  std::string driver, cuda_by_driver, runtime, gpu, host, device, source, started, git_revision;
  std::vector<MatrixLayer> layers;
  // A run with --require-gpu that had no usable GPU: "--require-gpu, but no usable CUDA
  // device: ...". Such a run was red, though each of its cells is a skip.
  std::string unmet;
};

// The layers' versions, short, for labels: "cuda-bindings 13.3.1" (several joined with " · ");
// a layer without versions by its name and the start of its describe text. Empty without layers.
std::string layers_label(const std::vector<MatrixLayer>& layers);

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
  // What "differs" means on every page and summary, and in report's own line: the scenario's
  // result is not the same in every environment that has it. An environment without it (a
  // layer that lacks the scenario, a filter that left it out) is no difference; xfail in one
  // and passed in another (a fix) is one, as is a regression.
  bool differs(const std::string& id) const;
  std::vector<std::string> differing() const;  // the scenarios that differ, in order
};

// Adds the results in one `hostcb run --json` file (format 1, 2 or 3): one column per device
// it ran on. Throws UsageError naming the file for anything unreadable.
void add_results_file(Matrix& matrix, const std::string& path);

// Cells whose status differs from the previous matrix (same scenario, same column key).
std::vector<MatrixChange> changes_since(const Matrix& previous, const Matrix& now);

// The matrix as JSON ("hostcb-matrix" format 1), and back: tomorrow's --previous.
std::string matrix_json(const Matrix& matrix);
Matrix load_matrix_json(const std::string& path);

}  // namespace hostcb
