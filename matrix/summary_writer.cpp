#include "matrix/summary_writer.hpp"

#include <algorithm>

#include "matrix/markdown_writer.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

// Text cut to kSummaryMaxText characters (at a UTF-8 boundary), then escaped for a table cell.
std::string cell(const std::string& text) {
  if (text.size() <= kSummaryMaxText) return markdown_cell(text);
  std::size_t end = kSummaryMaxText;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return markdown_cell(text.substr(0, end)) + "…";
}

std::string verdict(const MatrixDocument& doc) {
  std::size_t ran = 0;  // passed or xfail somewhere
  for (const auto& env : doc.environments) ran += env.counts.passed + env.counts.xfail;
  std::string red;
  if (doc.bad_cells) red = str(doc.bad_cells, " failed, error or xpass cell(s)");
  for (const auto& [number, unmet] : doc.unmet) red += str(red.empty() ? "" : "; ", "#", number, " ", cell(unmet));
  if (!red.empty()) return "**red**: " + red;
  if (ran == 0) return "**nothing ran**: every scenario was skipped";
  return "**green**: every scenario that ran passed (or was a known failure, xfail)";
}

std::string environments(const MatrixDocument& doc) {
  // The results file each row came from: in a CI's merge (ci-steps.sh), its job's folder
  // names the job, which two runners of one machine and layer would not otherwise show.
  std::string out = "| # | environment | results | layers | from |\n|---|---|---|---|---|\n";
  for (std::size_t e = 0; e < doc.environments.size() && e < kSummaryMaxEnvironments; ++e) {
    const EnvironmentRow& env = doc.environments[e];
    std::string layers = env.per_layer.empty() ? "none" : "";
    for (const auto& mine : env.per_layer)
      layers += str(layers.empty() ? "" : "; ", mine.layer, ": ", mine.counts.total(), " (", counts_text(mine.counts), ")");
    out += str("| ", env.number, " | ", cell(doc.columns[e].short_label), " | ", env.results, " | ", cell(layers), " | ",
               cell(env.source), " |\n");
  }
  if (doc.environments.size() > kSummaryMaxEnvironments)
    out += str("\nand ", doc.environments.size() - kSummaryMaxEnvironments, " more environment(s): the full matrix has them\n");
  return out;
}

std::string what_differs(const DiffExplanation& why) {
  std::string out = str("\n### What differs: ", why.rows, " scenario(s)\n\n");
  if (why.rows == 0) return out + "Every scenario has the same result in every environment.\n";
  for (std::size_t i = 0; i < why.lines.size() && i < kSummaryMaxDiffLines; ++i) out += "- " + cell(why.lines[i].text()) + "\n";
  const std::size_t more = (why.lines.size() > kSummaryMaxDiffLines ? why.lines.size() - kSummaryMaxDiffLines : 0) +
                           why.lines_left_off;
  if (more) out += str("- and ", more, " more line(s): the full matrix has them\n");
  return out;
}

std::string first_failures(const MatrixDocument& doc) {
  if (doc.failures.empty()) return "";
  std::string out = str("\n### First failures: ", std::min(doc.failures.size(), kSummaryMaxFailures), " of ",
                        doc.failures.size(), "\n\n| scenario | # | result | message |\n|---|---|---|---|\n");
  for (std::size_t i = 0; i < doc.failures.size() && i < kSummaryMaxFailures; ++i) {
    const FailureRow& f = doc.failures[i];
    out += str("| ", cell(f.id), " | ", f.column, " | ", status_name(f.cell.status), " | ", cell(f.cell.message), " |\n");
  }
  return out;
}

}  // namespace

std::string matrix_summary(const MatrixReport& report) {
  const MatrixDocument doc = matrix_document(report);
  std::string out = str("## hostcb: ", doc.scale, "\n\n", verdict(doc), "\n\n");
  out += environments(doc) + what_differs(doc.explanation) + first_failures(doc);
  if (report.has_previous) out += str("\n", doc.changes.size(), " cell(s) changed since ", cell(report.previous_source), ".\n");
  return out;
}

}  // namespace hostcb
