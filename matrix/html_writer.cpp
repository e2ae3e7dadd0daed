#include "matrix/html_writer.hpp"

#include "model/errors.hpp"
#include "reports/xml_escape.hpp"

namespace hostcb {

namespace {

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

std::string status_cell(const MatrixCell* cell) {
  if (!cell) return "<td class=\"s none\">·</td>";
  std::string name = status_name(cell->status);
  return str("<td class=\"s ", name, "\" title=\"", xml_attribute(cell->message), "\">", name, "</td>");
}

std::string column_heads(const MatrixDocument& doc) {
  std::string out;
  for (const auto& col : doc.columns)
    out += str("<th class=\"env\" title=\"", xml_attribute(col.label), "\">#", col.number, "<br/><span class=\"sub\">",
               xml_text(col.driver), "<br/>CUDA ", xml_text(col.runtime), " · dev ", xml_text(col.device),
               col.layers.empty() ? "" : "<br/>" + xml_text(col.layers), "</span></th>");
  return out;
}

std::string scenario_table(const MatrixDocument& doc, const std::vector<ScenarioRow>& rows, const char* row_class) {
  std::string out = "<table>\n<tr><th>scenario</th>" + column_heads(doc) + "</tr>\n";
  for (const auto& row : rows) {
    out += str("<tr", row_class, "><td class=\"id\">", xml_text(row.id), "</td>");
    for (const MatrixCell* cell : row.cells) out += status_cell(cell);
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string explanation(const DiffExplanation& why) {
  std::string out = str("<h3>What differs: ", why.rows, " scenario(s) whose result is not the same everywhere</h3>\n");
  if (why.rows == 0) return out + "<p>Every scenario has the same result in every environment.</p>\n";
  out += "<ul class=\"why\">\n";
  for (const auto& line : why.lines) out += "<li>" + xml_text(line.text()) + "</li>\n";
  if (why.lines_left_off)
    out += str("<li>and ", why.lines_left_off, " more line(s) (", why.rows_left_off, " scenarios): the tables below have them</li>\n");
  return out + "</ul>\n";
}

std::string card(const std::string& label, std::size_t value, const char* tone) {
  return str("<div class=\"card ", tone, "\"><b>", value, "</b>", xml_text(label), "</div>");
}

std::string since_previous(const MatrixDocument& doc) {
  if (!doc.has_previous) return "<h3>Since the previous night</h3>\n<p>No previous matrix was given (<code>--previous</code>).</p>\n";
  std::string out = str("<h3>Since the previous night: ", doc.changes.size(), " change(s)</h3>\n<p class=\"meta\">Against ",
                        xml_text(doc.previous_source), "</p>\n");
  if (doc.changes.empty()) return out;
  out += "<table>\n<tr><th>scenario</th><th>environment</th><th>before</th><th>now</th><th>message</th></tr>\n";
  for (const auto& ch : doc.changes)
    out += str("<tr><td class=\"id\">", xml_text(ch.id), "</td><td class=\"msg\">", xml_text(ch.environment), "</td>",
               status_cell(&ch.before), status_cell(&ch.after), "<td class=\"msg\">", xml_text(ch.after.message), "</td></tr>\n");
  return out + "</table>\n";
}

std::string environments(const MatrixDocument& doc) {
  std::string out = "<h2>Environments</h2>\n<table>\n<tr><th>#</th><th>driver</th><th>CUDA (driver)</th><th>runtime</th>"
                    "<th>GPU</th><th>host</th><th>device</th><th>layers</th><th>hostcb</th><th>results</th><th>file</th></tr>\n";
  for (const auto& env : doc.environments)
    out += str("<tr><td>", env.number, "</td><td>", xml_text(env.driver), "</td><td>", xml_text(env.cuda_by_driver),
               "</td><td>", xml_text(env.runtime), "</td><td>", xml_text(env.gpu), "</td><td>", xml_text(env.host),
               "</td><td>", xml_text(env.device), "</td><td>", xml_text(env.layers), "</td><td>", xml_text(env.git_revision),
               "</td><td>", xml_text(env.results), "</td><td>", xml_text(env.source), "</td></tr>\n");
  return out + "</table>\n";
}

}  // namespace

std::string matrix_html(const MatrixReport& report) {
  const MatrixDocument doc = matrix_document(report);
  std::string out = "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                    "<meta charset=\"utf-8\"/>\n<title>hostcb driver matrix</title>\n<style>";
  out += kStyle;
  out += "</style>\n</head>\n<body>\n<h1>hostcb driver matrix</h1>\n";
  out += str("<p class=\"meta\">", doc.scale, "; generated ",
             xml_text(doc.generated_utc), "</p>\n<div class=\"cards\">");
  out += card("differ across environments", doc.differing.size(), doc.differing.empty() ? "good" : "bad");
  if (doc.has_previous)
    out += card("changed since the previous night", doc.changes.size(), doc.changes.empty() ? "good" : "bad");
  out += card("failed, error or xpass cells", doc.bad_cells, doc.bad_cells ? "bad" : "good");
  if (!doc.unmet.empty()) out += card("runs that needed a GPU and had none", doc.unmet.size(), "bad");
  out += card("cells", doc.cells, "");
  out += "</div>\n<h2>What changed</h2>\n" + explanation(doc.explanation);
  out += str("<h3>Not the same everywhere it ran: ", doc.differing.size(), "</h3>\n");
  if (doc.differing.empty())
    out += "<p>Every scenario has the same result in every environment that ran it.</p>\n";
  else
    out += scenario_table(doc, doc.differing, " class=\"diff\"");
  out += since_previous(doc) + environments(doc);
  out += "<h2>Every scenario</h2>\n<p class=\"meta\">Hover a cell for its message.</p>\n" + scenario_table(doc, doc.every, "");
  return out + "</body>\n</html>\n";
}

}  // namespace hostcb
