// hostcb result: one scenario's result from a `run --json` file, printed as the console
// prints it, and its status as the exit code. CTest's per-family mode runs each family
// once and gives every scenario its own test through this (cmake/HostcbScenarioTests.cmake).
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "model/errors.hpp"
#include "model/result_json.hpp"
#include "reports/console_reporter.hpp"

namespace hostcb {

namespace {

class ResultCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* result = app.add_subcommand("result", "print one scenario's result from a run --json file; exit with its status");
    result->add_option("results", path_, "a hostcb run --json file")->type_name("FILE")->required();
    result->add_option("id", id_, "the scenario id")->type_name("ID")->required();
    result->footer("Exit codes: 0 passed (or xfail), 1 failed, error or xpass, or no result for the id in the file,\n"
                   "2 usage error (not a results file), 77 skipped.");
    return result;
  }

  int run(const Registry&, const std::string&) override {
    std::ifstream in(path_);
    if (!in) throw UsageError("cannot read the results file " + path_);
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.value("format", "") != "hostcb-results" ||
        !doc.contains("results") || !doc["results"].is_array())
      throw UsageError(path_ + ": not a hostcb results file");
    for (const auto& entry : doc["results"]) {
      if (!entry.is_object() || entry.value("id", "") != id_) continue;
      Result r = result_from_json(entry);
      ConsoleReporter(Verbosity::verbose, ColorMode::never).on_result(r, 0, 1);
      if (r.status == Status::skipped) return kExitNothingRan;
      return is_bad(r.status) ? kExitFailed : kExitPassed;
    }
    std::cout << "no result for " << id_ << " in " << path_ << ": the family's run did not reach it\n";
    return kExitFailed;
  }

 private:
  std::string path_, id_;
};

}  // namespace

std::unique_ptr<Command> make_result_command() { return std::make_unique<ResultCommand>(); }

}  // namespace hostcb
