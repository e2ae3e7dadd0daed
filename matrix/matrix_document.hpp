// What a matrix page says, decided once from the merged matrix: the counts, what differs
// and why, what changed since the previous night, the environments, every scenario. The
// Markdown and HTML writers (markdown_writer.hpp, html_writer.hpp) only lay it out.
#pragma once
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "matrix/matrix_explain.hpp"
#include "model/result.hpp"

namespace hostcb {

struct MatrixReport {
  Matrix matrix;
  bool has_previous = false;    // a previous night's matrix was given
  std::string previous_source;  // its path
  std::vector<MatrixChange> changes;
  std::string generated_utc;
};

// A column of the tables: an environment, as its head shows it.
struct ColumnHead {
  std::size_t number = 0;  // 1-based, as the page refers to it: "#2"
  std::string label;       // the whole label (the page's tooltip)
  std::string driver;      // "driver ?" when unknown
  std::string runtime, device;
  std::string layers;      // layers_label(); empty without layers
  // What tells columns apart in one line: "#2 580.159.04, CUDA 12.4, device 1, cuda-bindings 13.3.1".
  std::string short_label;
};

// One scenario across the columns; a null cell is a column it has no result in.
struct ScenarioRow {
  std::string id;
  std::vector<const MatrixCell*> cells;
};

struct ChangeRow {
  std::string id;
  std::string environment;  // the column's short label
  MatrixCell before, after;  // before carries no message
};

// What one loaded layer ran in one environment: the cells whose forward axis is its name.
struct LayerCounts {
  std::string layer;
  Counts counts;
};

struct EnvironmentRow {
  std::size_t number = 0;
  std::string driver;  // "?" when unknown
  std::string cuda_by_driver, runtime, gpu, host, device, git_revision, source;
  std::string layers;   // each layer's name and versions, or its describe text, and what it ran; "none"
  std::string results;  // "854 passed, 0 failed, 0 error, 71 skipped"
  Counts counts;        // the same, as numbers
  std::vector<LayerCounts> per_layer;  // each loaded layer's own scenarios"
};

// A bad cell (failed, error or xpass), for the first failures a summary lists.
struct FailureRow {
  std::string id;
  std::size_t column = 0;  // 1-based, as "#2"
  MatrixCell cell;
};

struct MatrixDocument {
  std::size_t scenario_count = 0;
  std::string scale;  // "1300 scenarios in 1 environment": every page's first line says it
  std::string generated_utc;
  std::vector<ColumnHead> columns;
  DiffExplanation explanation;
  std::vector<ScenarioRow> differing;  // Matrix::differs: not the same in every environment that has it
  bool has_previous = false;
  std::string previous_source;
  std::vector<ChangeRow> changes;
  std::vector<EnvironmentRow> environments;
  std::vector<ScenarioRow> every;
  std::size_t cells = 0, bad_cells = 0;
  // Runs that were red without a bad cell: (environment number, "--require-gpu, but no usable ...").
  std::vector<std::pair<std::size_t, std::string>> unmet;
  std::vector<FailureRow> failures;  // every bad cell, scenario order then column order
};

// "1300 scenarios in 1 environment", in the singular where it is one.
std::string scale_text(std::size_t scenarios, std::size_t environments);

// Counts as text: "854 passed, 0 failed, 0 error, 71 skipped" (xfail and xpass where any).
std::string counts_text(const Counts& counts);

MatrixDocument matrix_document(const MatrixReport& report);

}  // namespace hostcb
