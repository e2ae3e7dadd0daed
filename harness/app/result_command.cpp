// hostcb result: one scenario's result from a `run --json` file, printed as the console
// prints it, and its status as the exit code. CTest's per-family mode runs each family
// once and gives every scenario its own test through this (cmake/HostcbScenarioTests.cmake).
#include <iostream>
#include <set>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "model/suggest.hpp"
#include "reports/console_reporter.hpp"
#include "reports/reporter.hpp"
#include "reports/results_file.hpp"

namespace hostcb {

namespace {

class ResultCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* result = app.add_subcommand("result", "print one scenario's result from a run --json file; exit with its status");
    result->add_option("results", path_, "a hostcb run --json file")->type_name("FILE")->required();
    result->add_option("id", id_, "the scenario id")->type_name("ID")->required();
    result->footer("Every result the file has for the id is printed (each --repeat pass, each device of --device\n"
                   "all); the exit code is the worst one's.\n"
                   "Exit codes: 0 passed (or xfail), 1 failed, error or xpass, no result for the id in the file, or\n"
                   "stdout could not be written, 2 usage error (not a results file), 77 skipped.");
    return result;
  }

  int run(const Registry&, const std::string&) override {
    // The reader and format check `report` uses: a FIFO, a folder, a missing key or an
    // unknown format_version is exit 2 with one line, never a hang or an internal error.
    const ResultsFile file = read_results_file(path_);
    std::vector<const Result*> found;  // every pass (--repeat) and device (--device all)
    for (const Result& r : file.results)
      if (r.id == id_) found.push_back(&r);
    if (found.empty()) {
      std::cout << "no result for " << id_ << " in " << path_ << ": " << why_none(file) << "\n";
      return kExitFailed;
    }
    ConsoleReporter console(Verbosity::verbose, ColorMode::never);
    std::vector<Status> statuses;
    for (std::size_t i = 0; i < found.size(); ++i) {
      console.on_result(*found[i], i, found.size());
      statuses.push_back(found[i]->status);
    }
    const Status worst = worst_status(statuses);
    if (found.size() > 1)
      std::cout << found.size() << " results for " << id_ << "; the worst: " << status_name(worst) << "\n";
    if (worst == Status::skipped) return kExitNothingRan;
    return is_bad(worst) ? kExitFailed : kExitPassed;
  }

 private:
  // Why the file has no result for the id, from what it holds: a run that has not finished
  // (its marker), an id no result is close to (a typo), or a run that did not reach it.
  std::string why_none(const ResultsFile& file) const {
    std::set<std::string> ids;
    for (const Result& r : file.results) {
      if (r.id == kUnfinishedRunId) return "the run writing it has not finished: " + first_line(r.reason);
      ids.insert(r.id);
    }
    const std::string n = std::to_string(file.results.size());
    // A typo is looked for among a family's worth of ids, not a million (edit distances).
    const std::string closest = ids.size() <= 20000 ? closest_match(id_, {ids.begin(), ids.end()}) : "";
    if (!closest.empty()) return "none of its " + n + " results has this id; did you mean '" + closest + "'?";
    return "none of its " + n + " results has this id: the run did not reach it, or the id is mistyped";
  }
  std::string path_, id_;
};

}  // namespace

std::unique_ptr<Command> make_result_command() { return std::make_unique<ResultCommand>(); }

}  // namespace hostcb
