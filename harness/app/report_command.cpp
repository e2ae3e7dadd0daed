// hostcb report: many `run --json` files merged into one matrix (Markdown, HTML, JSON).
#include <sys/stat.h>

#include <algorithm>
#include <iostream>
#include <utility>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/options.hpp"
#include "matrix/html_writer.hpp"
#include "matrix/markdown_writer.hpp"
#include "matrix/matrix_document.hpp"
#include "matrix/matrix.hpp"
#include "matrix/summary_writer.hpp"

namespace hostcb {

namespace {

// The results files once each: the same file given twice (a.json ./a.json, a link to it) is
// one environment, not two with every red cell counted twice. A file that cannot be looked
// at is kept, for its reader to refuse.
std::vector<std::string> once_each(const std::vector<std::string>& paths) {
  std::vector<std::string> distinct;
  std::vector<std::pair<dev_t, ino_t>> seen;
  for (const auto& path : paths) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
      const std::pair<dev_t, ino_t> identity{st.st_dev, st.st_ino};
      if (std::find(seen.begin(), seen.end(), identity) != seen.end()) continue;
      seen.push_back(identity);
    }
    distinct.push_back(path);
  }
  return distinct;
}

class ReportCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* report = app.add_subcommand(
        "report", "merge run --json files from many drivers, runtimes and GPUs into one matrix (Markdown, HTML, JSON)");
    report->add_option("results", results_, "hostcb run --json files")->type_name("FILE...")->required()->check(CLI::ExistingFile.description(""));
    report->add_option("--previous", previous_, "the previous night's matrix JSON (report --json): list what changed since")
        ->type_name("FILE")
        ->check(CLI::ExistingFile.description(""));
    add_report_option(report, markdown_, "--markdown", "write the Markdown matrix here");
    add_report_option(report, html_, "--html", "write a self-contained HTML page here");
    add_report_option(report, json_, "--json", "write the matrix as JSON here (tomorrow's --previous)");
    add_report_option(report, summary_, "--summary",
                      "write a short Markdown summary here (verdict, counts per environment and layer, what differs, "
                      "the first failures; under 60 KB) for a pull-request comment or a CI step summary");
    report->footer("With no output named, the Markdown goes to stdout.\n"
                   "Exit codes: 0 merged, 1 a report or stdout could not be written, 2 usage error (a file that is not a\n"
                   "results file), 130/143 interrupted.");
    return report;
  }

  int run(const Registry&, const std::string&) override {
    std::vector<ReportTarget> inputs;  // an output must not replace what it is made from
    for (const auto& path : results_) inputs.push_back({path, "results file"});
    if (!previous_.empty()) inputs.push_back({previous_, "previous matrix"});
    check_report_options({&markdown_, &html_, &json_, &summary_}, inputs);
    MatrixReport report;
    report.generated_utc = utc_now();
    for (const auto& path : once_each(results_)) add_results_file(report.matrix, path);
    if (!previous_.empty()) {
      report.has_previous = true;
      report.previous_source = previous_;
      report.changes = changes_since(load_matrix_json(previous_), report.matrix);
    }
    std::vector<ReportOutput> outputs;
    if (markdown_.given()) outputs.push_back({{markdown_.path, markdown_.what}, [&] { return matrix_markdown(report); }});
    if (html_.given()) outputs.push_back({{html_.path, html_.what}, [&] { return matrix_html(report); }});
    if (json_.given()) outputs.push_back({{json_.path, json_.what}, [&] { return matrix_json(report.matrix); }});
    if (summary_.given()) outputs.push_back({{summary_.path, summary_.what}, [&] { return matrix_summary(report); }});
    ReportsWritten done = write_reports(outputs);  // every one is attempted
    for (const auto& problem : done.failed) std::cerr << "hostcb: " << problem << "\n";
    if (outputs.empty()) std::cout << matrix_markdown(report);
    // The figures the pages give (matrix_document): the console never says another.
    const MatrixDocument doc = matrix_document(report);
    std::cerr << "hostcb report: " << doc.scale << "; what differs: " << doc.explanation.rows
              << " scenario(s) whose result is not the same everywhere";
    if (report.has_previous) std::cerr << ", " << report.changes.size() << " changed since the previous matrix";
    std::cerr << "\n";
    return done.ok() ? kExitPassed : kExitFailed;
  }

 private:
  std::vector<std::string> results_;
  std::string previous_;
  ReportOption markdown_{"", nullptr, "Markdown report"}, html_{"", nullptr, "HTML report"}, json_{"", nullptr, "matrix JSON"},
      summary_{"", nullptr, "summary"};
};

}  // namespace

std::unique_ptr<Command> make_report_command() { return std::make_unique<ReportCommand>(); }

}  // namespace hostcb
