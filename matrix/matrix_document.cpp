#include "matrix/matrix_document.hpp"

#include "model/errors.hpp"

namespace hostcb {

namespace {

Counts column_counts(const Matrix& m, std::size_t column) {
  Counts counts;
  for (const auto& id : m.scenarios)
    if (const MatrixCell* c = m.cell(id, column)) counts.add(c->status);
  return counts;
}

std::string counts_text(const Counts& c) {
  std::string text = str(c.passed, " passed, ", c.failed, " failed, ", c.error, " error, ", c.skipped, " skipped");
  if (c.xfail || c.xpass) text += str(", ", c.xfail, " xfail, ", c.xpass, " xpass");
  return text;
}

// The environments table's layers cell: each layer's name and versions, or its whole
// describe text where it has no versions (the table has room the column heads lack).
std::string layers_text(const MatrixColumn& c) {
  std::string text;
  for (const auto& layer : c.layers) {
    text += str(text.empty() ? "" : "; ", layer.name, ": ");
    if (layer.versions.empty()) text += first_line(layer.describe);
    for (std::size_t i = 0; i < layer.versions.size(); ++i)
      text += str(i ? ", " : "", layer.versions[i].first, " ", layer.versions[i].second);
  }
  return text.empty() ? "none" : text;
}

ColumnHead column_head(const MatrixColumn& c, std::size_t index) {
  ColumnHead head{index + 1, c.label, c.driver.empty() ? "driver ?" : c.driver, c.runtime, c.device, layers_label(c.layers), ""};
  // The GPU and host are in the environments table (and the page's tooltips).
  head.short_label = str("#", head.number, " ", head.driver, ", CUDA ", c.runtime, ", device ", c.device);
  if (!head.layers.empty()) head.short_label += ", " + head.layers;
  return head;
}

ScenarioRow scenario_row(const Matrix& m, const std::string& id) {
  ScenarioRow row{id, {}};
  for (std::size_t c = 0; c < m.columns.size(); ++c) row.cells.push_back(m.cell(id, c));
  return row;
}

}  // namespace

MatrixDocument matrix_document(const MatrixReport& report) {
  const Matrix& m = report.matrix;
  MatrixDocument doc;
  doc.scenario_count = m.scenarios.size();
  doc.generated_utc = report.generated_utc;
  for (std::size_t c = 0; c < m.columns.size(); ++c) doc.columns.push_back(column_head(m.columns[c], c));
  doc.explanation = explain_differences(m);
  for (const auto& id : m.differing()) doc.differing.push_back(scenario_row(m, id));
  doc.has_previous = report.has_previous;
  doc.previous_source = report.previous_source;
  for (const auto& ch : report.changes)
    doc.changes.push_back({ch.id, doc.columns[ch.column].short_label, {ch.before, ""}, {ch.after, ch.message}});
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    const MatrixColumn& col = m.columns[c];
    doc.environments.push_back({c + 1, col.driver.empty() ? "?" : col.driver, col.cuda_by_driver, col.runtime, col.gpu,
                                col.host, col.device, col.git_revision, col.source, layers_text(col),
                                counts_text(column_counts(m, c))});
  }
  for (const auto& id : m.scenarios) {
    doc.every.push_back(scenario_row(m, id));
    for (const auto& [column, cell] : m.cells.at(id)) {
      ++doc.cells;
      doc.bad_cells += is_bad(cell.status);
    }
  }
  return doc;
}

}  // namespace hostcb
