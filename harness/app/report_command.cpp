// hostcb report: many `run --json` files merged into one matrix (Markdown, HTML, JSON).
#include <iostream>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/options.hpp"
#include "reports/atomic_file.hpp"
#include "reports/matrix.hpp"
#include "reports/matrix_writer.hpp"

namespace hostcb {

namespace {

class ReportCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* report = app.add_subcommand(
        "report", "merge run --json files from many drivers, runtimes and GPUs into one matrix (Markdown, HTML, JSON)");
    report->add_option("results", results_, "hostcb run --json files")->type_name("FILE...")->required()->check(CLI::ExistingFile.description(""));
    report->add_option("--previous", previous_, "the previous night's matrix JSON (report --json): list what changed since")
        ->type_name("FILE")
        ->check(CLI::ExistingFile.description(""));
    report->add_option("--markdown", markdown_path_, "write the Markdown matrix here")->type_name("FILE");
    report->add_option("--html", html_path_, "write a self-contained HTML page here")->type_name("FILE");
    report->add_option("--json", json_path_, "write the matrix as JSON here (tomorrow's --previous)")->type_name("FILE");
    report->footer("With no output named, the Markdown goes to stdout.\n"
                   "Exit codes: 0 merged, 1 a report could not be written, 2 usage error (a file that is not a results file).");
    return report;
  }

  int run(const Registry&, const std::string&) override {
    for (const auto& [path, what] : {std::pair{markdown_path_, "Markdown report"}, {html_path_, "HTML report"},
                                     {json_path_, "matrix JSON"}})
      if (!path.empty()) check_writable(path, what);
    MatrixReport report;
    report.generated_utc = utc_now();
    for (const auto& path : results_) add_results_file(report.matrix, path);
    if (!previous_.empty()) {
      report.has_previous = true;
      report.previous_source = previous_;
      report.changes = changes_since(load_matrix_json(previous_), report.matrix);
    }
    int code = kExitPassed;
    auto write = [&](const std::string& path, const std::string& content) {  // every one is attempted
      if (path.empty()) return;
      try {
        write_file_atomically(path, content);
      } catch (const std::exception& e) {
        std::cerr << "hostcb: " << e.what() << "\n";
        code = kExitFailed;
      }
    };
    write(markdown_path_, matrix_markdown(report));
    write(html_path_, matrix_html(report));
    write(json_path_, matrix_json(report.matrix));
    if (markdown_path_.empty() && html_path_.empty() && json_path_.empty()) std::cout << matrix_markdown(report);
    std::cerr << "hostcb report: " << report.matrix.scenarios.size() << " scenarios, " << report.matrix.columns.size()
              << " environments, " << report.matrix.differing().size() << " differing across them";
    if (report.has_previous) std::cerr << ", " << report.changes.size() << " changed since the previous matrix";
    std::cerr << "\n";
    return code;
  }

 private:
  std::vector<std::string> results_;
  std::string previous_, markdown_path_, html_path_, json_path_;
};

}  // namespace

std::unique_ptr<Command> make_report_command() { return std::make_unique<ReportCommand>(); }

}  // namespace hostcb
