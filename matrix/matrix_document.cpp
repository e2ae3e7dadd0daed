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

// What each loaded layer of a column ran: its cells are those whose id names it as forward.
std::vector<LayerCounts> layer_counts(const Matrix& m, std::size_t column) {
  std::vector<LayerCounts> per_layer;
  for (const auto& layer : m.columns[column].layers) {
    const std::string axis = "/forward=" + layer.name;
    LayerCounts mine{layer.name, {}};
    for (const auto& id : m.scenarios) {
      const std::size_t at = id.find(axis);
      const bool through = at != std::string::npos && (at + axis.size() == id.size() || id[at + axis.size()] == '/');
      if (const MatrixCell* c = m.cell(id, column); c && through) mine.counts.add(c->status);
    }
    per_layer.push_back(mine);
  }
  return per_layer;
}

// The environments table's layers cell: each layer's name and versions, or its whole
// describe text where it has no versions (the table has room the column heads lack), and
// how many scenarios went through it.
std::string layers_text(const MatrixColumn& c, const std::vector<LayerCounts>& per_layer) {
  std::string text;
  for (std::size_t l = 0; l < c.layers.size(); ++l) {
    const MatrixLayer& layer = c.layers[l];
    text += str(text.empty() ? "" : "; ", layer.name, ": ");
    if (layer.versions.empty()) text += first_line(layer.describe);
    for (std::size_t i = 0; i < layer.versions.size(); ++i)
      text += str(i ? ", " : "", layer.versions[i].first, " ", layer.versions[i].second);
    const Counts& n = per_layer[l].counts;
    text += str(" (ran ", n.total(), " scenario", n.total() == 1 ? "" : "s", ": ", counts_text(n), ")");
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

std::string scale_text(std::size_t scenarios, std::size_t environments) {
  return str(scenarios, " scenario", scenarios == 1 ? "" : "s", " in ", environments, " environment", environments == 1 ? "" : "s");
}

std::string counts_text(const Counts& c) {
  std::string text = str(c.passed, " passed, ", c.failed, " failed, ", c.error, " error, ", c.skipped, " skipped");
  if (c.xfail || c.xpass) text += str(", ", c.xfail, " xfail, ", c.xpass, " xpass");
  return text;
}

MatrixDocument matrix_document(const MatrixReport& report) {
  const Matrix& m = report.matrix;
  MatrixDocument doc;
  doc.scenario_count = m.scenarios.size();
  doc.scale = scale_text(doc.scenario_count, m.columns.size());
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
    if (!col.unmet.empty()) doc.unmet.emplace_back(c + 1, col.unmet);
    const Counts counts = column_counts(m, c);
    std::vector<LayerCounts> per_layer = layer_counts(m, c);
    doc.environments.push_back({c + 1, col.driver.empty() ? "?" : col.driver, col.cuda_by_driver, col.runtime, col.gpu,
                                col.host, col.device, col.git_revision, col.source, layers_text(col, per_layer),
                                counts_text(counts), counts, per_layer});
  }
  for (const auto& id : m.scenarios) {
    doc.every.push_back(scenario_row(m, id));
    for (const auto& [column, cell] : m.cells.at(id)) {
      ++doc.cells;
      doc.bad_cells += is_bad(cell.status);
      if (is_bad(cell.status)) doc.failures.push_back({id, column + 1, cell});
    }
  }
  return doc;
}

}  // namespace hostcb
