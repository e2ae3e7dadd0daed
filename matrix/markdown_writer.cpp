#include "matrix/markdown_writer.hpp"

#include "model/errors.hpp"

namespace hostcb {

namespace {

using Row = std::vector<std::string>;

// Every table here has one form: its head, the separator, a line per row. Cells come as
// they are to be shown (escaped by the caller where they need it).
std::string table(const Row& head, const std::vector<Row>& rows) {
  std::string out = "|";
  for (const auto& cell : head) out += " " + cell + " |";
  out += "\n|";
  for (std::size_t c = 0; c < head.size(); ++c) out += "---|";
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (const auto& cell : row) out += " " + cell + " |";
    out += "\n";
  }
  return out;
}

std::string status_text(const MatrixCell* cell) {
  if (!cell) return "·";
  std::string name = status_name(cell->status);
  return is_bad(cell->status) ? "**" + name + "**" : name;
}

// Scenarios down, environments across.
std::string scenario_table(const MatrixDocument& doc, const std::vector<ScenarioRow>& scenarios) {
  Row head = {"scenario"};
  for (const auto& column : doc.columns) head.push_back(markdown_cell(column.short_label));
  std::vector<Row> rows;
  for (const auto& scenario : scenarios) {
    rows.push_back({markdown_cell(scenario.id)});
    for (const MatrixCell* cell : scenario.cells) rows.back().push_back(status_text(cell));
  }
  return table(head, rows);
}

// Before any table: the differing rows as a few axis patterns (matrix_explain.hpp).
std::string explanation(const DiffExplanation& why) {
  std::string out = str("### What differs: ", why.rows, " scenario(s) whose result is not the same everywhere\n\n");
  if (why.rows == 0) return out + "Every scenario has the same result in every environment.\n\n";
  for (const auto& line : why.lines) out += "- " + markdown_cell(line.text()) + "\n";
  if (why.lines_left_off)
    out += str("- and ", why.lines_left_off, " more line(s) (", why.rows_left_off, " scenarios): the tables below have them\n");
  return out + "\n";
}

std::string since_previous(const MatrixDocument& doc) {
  if (!doc.has_previous) return "### Since the previous night\n\nNo previous matrix was given (`--previous`).\n\n";
  std::vector<Row> changes;
  for (const auto& ch : doc.changes)
    changes.push_back({markdown_cell(ch.id), markdown_cell(ch.environment), status_name(ch.before.status),
                       status_name(ch.after.status), markdown_cell(ch.after.message)});
  return str("### Since the previous night: ", doc.changes.size(), " change(s)\n\nAgainst ", markdown_cell(doc.previous_source),
             ".\n\n", changes.empty() ? "" : table({"scenario", "environment", "before", "now", "message"}, changes) + "\n");
}

std::string environments(const MatrixDocument& doc) {
  std::vector<Row> rows;
  for (const auto& env : doc.environments)
    rows.push_back({std::to_string(env.number), markdown_cell(env.driver), env.cuda_by_driver, env.runtime,
                    markdown_cell(env.gpu), markdown_cell(env.host), env.device, markdown_cell(env.layers), env.results});
  return table({"#", "driver", "CUDA (driver)", "runtime", "GPU", "host", "device", "layers", "results"}, rows);
}

}  // namespace

std::string markdown_cell(const std::string& text) {
  // Every character Markdown gives a meaning inside a table cell is escaped: a link, an
  // image or an autolink in an id or message comes out as its text. Control characters are
  // shown, not passed on: a newline would end the row and cut the id.
  static const std::string kEscaped = "\\`*_[](){}!|~#:";
  std::string out;
  for (unsigned char c : text) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '\n') {
      out += "\\n";  // a backslash before a letter is shown as it is
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      static const char* kHex = "0123456789abcdef";
      out += str("\\x", kHex[c >> 4], kHex[c & 15]);
    } else {
      if (kEscaped.find(static_cast<char>(c)) != std::string::npos) out += '\\';
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string matrix_markdown(const MatrixReport& report) {
  const MatrixDocument doc = matrix_document(report);
  std::string out = str("# hostcb driver matrix\n\n", doc.scale, ", generated ", doc.generated_utc, ".\n\n## What changed\n\n");
  out += explanation(doc.explanation);
  out += str("### Not the same everywhere it ran: ", doc.differing.size(), "\n\n");
  if (doc.differing.empty())
    out += "Every scenario has the same result in every environment that ran it.\n\n";
  else
    out += scenario_table(doc, doc.differing) + "\n";
  out += since_previous(doc);
  out += "## Environments\n\n" + environments(doc);
  return out + "\n## Every scenario\n\n" + scenario_table(doc, doc.every);
}

}  // namespace hostcb
