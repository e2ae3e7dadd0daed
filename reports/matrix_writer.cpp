#include "reports/matrix_writer.hpp"

#include <map>

#include "model/errors.hpp"
#include "model/result.hpp"
#include "reports/matrix_explain.hpp"
#include "reports/xml_escape.hpp"

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

// What tells columns apart in a header: "#2 580.159.04, CUDA 12.4, device 1, cuda-bindings
// 13.3.1". The GPU and host are in the environments table (and the page's header tooltips).
std::string short_label(const Matrix& m, std::size_t column) {
  const MatrixColumn& c = m.columns[column];
  std::string label = str("#", column + 1, " ", c.driver.empty() ? "driver ?" : c.driver, ", CUDA ", c.runtime, ", device ", c.device);
  if (!c.layers.empty()) label += ", " + layers_label(c.layers);
  return label;
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

// --- Markdown ----------------------------------------------------------------------------

std::string md_table_head(const Matrix& m) {
  std::string out = "| scenario |";
  for (std::size_t c = 0; c < m.columns.size(); ++c) out += " " + markdown_cell(short_label(m, c)) + " |";
  out += "\n|---|";
  for (std::size_t c = 0; c < m.columns.size(); ++c) out += "---|";
  return out + "\n";
}

// Before any table: the differing rows as a few axis patterns (matrix_explain.hpp).
std::string md_explanation(const Matrix& m) {
  DiffExplanation why = explain_differences(m);
  std::string out = str("### What differs: ", why.rows, " scenario(s) whose result is not the same everywhere\n\n");
  if (why.rows == 0) return out + "Every scenario has the same result in every environment.\n\n";
  for (const auto& line : why.lines) out += "- " + markdown_cell(line.text()) + "\n";
  if (why.lines_left_off)
    out += str("- and ", why.lines_left_off, " more line(s) (", why.rows_left_off, " scenarios): the tables below have them\n");
  return out + "\n";
}

std::string md_status(const MatrixCell* cell) {
  if (!cell) return "·";
  std::string name = status_name(cell->status);
  return is_bad(cell->status) ? "**" + name + "**" : name;
}

// --- HTML --------------------------------------------------------------------------------

const char* kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
.meta { color: #666; }
.cards { display: flex; gap: 1em; margin: 1em 0; }
.card { padding: 0.6em 1em; border-radius: 6px; background: #f3f3f3; min-width: 9em; }
.card b { display: block; font-size: 1.6em; }
.card.bad { background: #fde2e1; } .card.good { background: #e3f4e5; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #f5f5f5; position: sticky; top: 0; }
td.id { font-family: ui-monospace, monospace; font-size: 12px; white-space: nowrap; }
td.s { text-align: center; font-size: 12px; white-space: nowrap; }
.passed { background: #d8f0da; } .failed { background: #f7b9b5; font-weight: bold; }
.error { background: #e8867f; font-weight: bold; } .skipped { background: #eee; color: #777; }
.xfail { background: #fbe9b7; } .xpass { background: #e9b4f0; font-weight: bold; } .none { color: #bbb; }
td.msg { font-size: 12px; max-width: 60em; }
th.env { text-align: center; } .sub { font-weight: normal; font-size: 11px; color: #555; white-space: nowrap; }
tr.diff td.id { background: #fff4d6; }
ul.why li { font-family: ui-monospace, monospace; font-size: 12px; margin: 0.2em 0; }
)";

std::string html_cell(const MatrixCell* cell) {
  if (!cell) return "<td class=\"s none\">·</td>";
  std::string name = status_name(cell->status);
  return str("<td class=\"s ", name, "\" title=\"", xml_attribute(cell->message), "\">", name, "</td>");
}

std::string html_column_heads(const Matrix& m) {
  std::string out;
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    const MatrixColumn& col = m.columns[c];
    out += str("<th class=\"env\" title=\"", xml_attribute(col.label), "\">#", c + 1, "<br/><span class=\"sub\">",
               xml_text(col.driver.empty() ? "driver ?" : col.driver), "<br/>CUDA ", xml_text(col.runtime), " · dev ",
               xml_text(col.device), col.layers.empty() ? "" : "<br/>" + xml_text(layers_label(col.layers)), "</span></th>");
  }
  return out;
}

std::string html_explanation(const Matrix& m) {
  DiffExplanation why = explain_differences(m);
  std::string out = str("<h3>What differs: ", why.rows, " scenario(s) whose result is not the same everywhere</h3>\n");
  if (why.rows == 0) return out + "<p>Every scenario has the same result in every environment.</p>\n";
  out += "<ul class=\"why\">\n";
  for (const auto& line : why.lines) out += "<li>" + xml_text(line.text()) + "</li>\n";
  if (why.lines_left_off)
    out += str("<li>and ", why.lines_left_off, " more line(s) (", why.rows_left_off, " scenarios): the tables below have them</li>\n");
  return out + "</ul>\n";
}

std::string html_card(const std::string& label, std::size_t value, const char* tone) {
  return str("<div class=\"card ", tone, "\"><b>", value, "</b>", xml_text(label), "</div>");
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
  const Matrix& m = report.matrix;
  std::vector<std::string> differing = m.differing();
  std::string out = str("# hostcb driver matrix\n\n", m.scenarios.size(), " scenarios in ", m.columns.size(),
                        " environments, generated ", report.generated_utc, ".\n\n## What changed\n\n");
  out += md_explanation(m);
  out += str("### Passes in one environment, fails in another: ", differing.size(), "\n\n");
  if (differing.empty()) {
    out += "Every scenario that passed somewhere passed everywhere it ran.\n\n";
  } else {
    out += md_table_head(m);
    for (const auto& id : differing) {
      out += "| " + markdown_cell(id) + " |";
      for (std::size_t c = 0; c < m.columns.size(); ++c) out += " " + md_status(m.cell(id, c)) + " |";
      out += "\n";
    }
    out += "\n";
  }
  if (!report.has_previous) {
    out += "### Since the previous night\n\nNo previous matrix was given (`--previous`).\n\n";
  } else {
    out += str("### Since the previous night: ", report.changes.size(), " change(s)\n\nAgainst ",
               markdown_cell(report.previous_source), ".\n\n");
    if (!report.changes.empty()) {
      out += "| scenario | environment | before | now | message |\n|---|---|---|---|---|\n";
      for (const auto& ch : report.changes)
        out += str("| ", markdown_cell(ch.id), " | ", markdown_cell(short_label(m, ch.column)), " | ", status_name(ch.before), " | ",
                   status_name(ch.after), " | ", markdown_cell(ch.message), " |\n");
      out += "\n";
    }
  }
  out += "## Environments\n\n| # | driver | CUDA (driver) | runtime | GPU | host | device | layers | results |\n"
         "|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    const MatrixColumn& col = m.columns[c];
    out += str("| ", c + 1, " | ", markdown_cell(col.driver.empty() ? "?" : col.driver), " | ", col.cuda_by_driver, " | ",
               col.runtime, " | ", markdown_cell(col.gpu), " | ", markdown_cell(col.host), " | ", col.device, " | ",
               markdown_cell(layers_text(col)), " | ", counts_text(column_counts(m, c)), " |\n");
  }
  out += "\n## Every scenario\n\n" + md_table_head(m);
  for (const auto& id : m.scenarios) {
    out += "| " + markdown_cell(id) + " |";
    for (std::size_t c = 0; c < m.columns.size(); ++c) out += " " + md_status(m.cell(id, c)) + " |";
    out += "\n";
  }
  return out;
}

std::string matrix_html(const MatrixReport& report) {
  const Matrix& m = report.matrix;
  std::vector<std::string> differing = m.differing();
  std::size_t bad_cells = 0, cells = 0;
  for (const auto& id : m.scenarios)
    for (const auto& [column, cell] : m.cells.at(id)) {
      ++cells;
      bad_cells += is_bad(cell.status);
    }
  std::string out = "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                    "<meta charset=\"utf-8\"/>\n<title>hostcb driver matrix</title>\n<style>";
  out += kStyle;
  out += "</style>\n</head>\n<body>\n<h1>hostcb driver matrix</h1>\n";
  out += str("<p class=\"meta\">", m.scenarios.size(), " scenarios in ", m.columns.size(), " environments; generated ",
             xml_text(report.generated_utc), "</p>\n<div class=\"cards\">");
  out += html_card("differ across environments", differing.size(), differing.empty() ? "good" : "bad");
  if (report.has_previous)
    out += html_card("changed since the previous night", report.changes.size(), report.changes.empty() ? "good" : "bad");
  out += html_card("failed, error or xpass cells", bad_cells, bad_cells ? "bad" : "good");
  out += html_card("cells", cells, "");
  out += "</div>\n<h2>What changed</h2>\n";
  out += html_explanation(m);

  out += str("<h3>Passes in one environment, fails in another: ", differing.size(), "</h3>\n");
  if (differing.empty()) {
    out += "<p>Every scenario that passed somewhere passed everywhere it ran.</p>\n";
  } else {
    out += "<table>\n<tr><th>scenario</th>" + html_column_heads(m) + "</tr>\n";
    for (const auto& id : differing) {
      out += "<tr class=\"diff\"><td class=\"id\">" + xml_text(id) + "</td>";
      for (std::size_t c = 0; c < m.columns.size(); ++c) out += html_cell(m.cell(id, c));
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  if (!report.has_previous) {
    out += "<h3>Since the previous night</h3>\n<p>No previous matrix was given (<code>--previous</code>).</p>\n";
  } else {
    out += str("<h3>Since the previous night: ", report.changes.size(), " change(s)</h3>\n<p class=\"meta\">Against ",
               xml_text(report.previous_source), "</p>\n");
    if (!report.changes.empty()) {
      out += "<table>\n<tr><th>scenario</th><th>environment</th><th>before</th><th>now</th><th>message</th></tr>\n";
      for (const auto& ch : report.changes) {
        MatrixCell before{ch.before, ""}, after{ch.after, ch.message};
        out += str("<tr><td class=\"id\">", xml_text(ch.id), "</td><td class=\"msg\">", xml_text(short_label(m, ch.column)), "</td>", html_cell(&before),
                   html_cell(&after), "<td class=\"msg\">", xml_text(ch.message), "</td></tr>\n");
      }
      out += "</table>\n";
    }
  }

  out += "<h2>Environments</h2>\n<table>\n<tr><th>#</th><th>driver</th><th>CUDA (driver)</th><th>runtime</th>"
         "<th>GPU</th><th>host</th><th>device</th><th>layers</th><th>hostcb</th><th>results</th><th>file</th></tr>\n";
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    const MatrixColumn& col = m.columns[c];
    out += str("<tr><td>", c + 1, "</td><td>", xml_text(col.driver.empty() ? "?" : col.driver), "</td><td>",
               xml_text(col.cuda_by_driver), "</td><td>", xml_text(col.runtime), "</td><td>", xml_text(col.gpu),
               "</td><td>", xml_text(col.host), "</td><td>", xml_text(col.device), "</td><td>", xml_text(layers_text(col)),
               "</td><td>", xml_text(col.git_revision), "</td><td>",
               xml_text(counts_text(column_counts(m, c))), "</td><td>", xml_text(col.source), "</td></tr>\n");
  }
  out += "</table>\n<h2>Every scenario</h2>\n<p class=\"meta\">Hover a cell for its message.</p>\n<table>\n"
         "<tr><th>scenario</th>" + html_column_heads(m) + "</tr>\n";
  for (const auto& id : m.scenarios) {
    out += "<tr><td class=\"id\">" + xml_text(id) + "</td>";
    for (std::size_t c = 0; c < m.columns.size(); ++c) out += html_cell(m.cell(id, c));
    out += "</tr>\n";
  }
  out += "</table>\n</body>\n</html>\n";
  return out;
}

}  // namespace hostcb
