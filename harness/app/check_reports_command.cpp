// hostcb check-reports (internal, hidden): hostcb's report-path rules (reports/report_targets.hpp)
// for a writer that is not hostcb itself, the pytest plugin's --hostcb-json, so that every
// writer refuses the same paths, before anything runs:
//   hostcb check-reports --target 'WHAT=PATH'... [--input 'WHAT=PATH']...
// exits 0, or 2 with the one line a refused --json of hostcb run would give.
#include "app/command.hpp"
#include "model/errors.hpp"
#include "reports/report_targets.hpp"

namespace hostcb {

namespace {

ReportTarget target_of(const std::string& given) {
  const std::size_t equals = given.find('=');
  if (equals == std::string::npos || equals == 0)
    throw UsageError("check-reports: '" + given + "' is not WHAT=PATH (e.g. 'JSON report=out.json')");
  return {given.substr(equals + 1), given.substr(0, equals)};
}

class CheckReportsCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* check = app.add_subcommand("check-reports", "internal: check report paths as hostcb's own writers do");
    check->group("");  // hidden from --help
    check->add_option("--target", targets_, "a report to be written, WHAT=PATH")->required();
    check->add_option("--input", inputs_, "a file the writing command reads, WHAT=PATH");
    return check;
  }
  int run(const Registry&, const std::string&) override {
    std::vector<ReportTarget> targets, inputs;
    for (const auto& t : targets_) targets.push_back(target_of(t));
    for (const auto& i : inputs_) inputs.push_back(target_of(i));
    check_report_targets(targets, inputs);  // throws UsageError: one line, exit 2
    return 0;
  }

 private:
  std::vector<std::string> targets_, inputs_;
};

}  // namespace

std::unique_ptr<Command> make_check_reports_command() { return std::make_unique<CheckReportsCommand>(); }

}  // namespace hostcb
