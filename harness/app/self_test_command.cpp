// hostcb self-test: every known-bad control must be caught as it declares.
#include <iostream>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/options.hpp"
#include "app/run_session.hpp"
#include "app/selftest.hpp"
#include "exec/interrupt.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

// "self-test: 10/283" on stderr at every tenth control, and at the last.
class ControlProgress final : public Reporter {
 public:
  void on_result(const Result&, std::size_t index, std::size_t total) override {
    const std::size_t done = index + 1;
    if (done % 10 == 0 || done == total) std::cerr << "self-test: " << done << "/" << total << "\n";
  }
};

class SelfTestCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* self_test = app.add_subcommand(
        "self-test",
        "run known-bad controls, one for each check in each family it serves (--full: every one); succeed only "
        "if each is caught as it must be (needs a GPU)");
    add_execution_options(self_test, execution_);
    add_device_option(self_test, device_, false);
    add_adapter_option(self_test, adapters_);
    self_test->add_flag("--full", full_,
                        "every known-bad control (the nightly's and CI's), not one for each check in each family");
    self_test->add_flag("--require-gpu", require_gpu_,
                        "a control skipped for want of a usable GPU is a failure (exit 1, with the reason), not "
                        "nothing run (exit 77)");
    self_test->footer(
        "Exit codes: 0 every control caught, 1 a control escaped (or no usable GPU, with --require-gpu), 2 usage\n"
        "error, 77 nothing ran (no usable GPU), 130/143 interrupted.");
    return self_test;
  }
  std::vector<std::string> adapters() const override { return adapters_; }

  int run(const Registry& registry, const std::string& command_line) override {
    Selection selection;
    selection.only_controls = true;
    const std::vector<Scenario> all = registry.plan(selection);
    const std::vector<Scenario> plan = full_ ? all : one_control_per_check(all);
    RunSession session({device_, execution_, adapters_, command_line, "self-test needs worker isolation: controls crash and hang"});
    ControlProgress progress;
    const std::vector<Result> results = session.run(plan, 1, progress).report.results;
    std::vector<ControlOutcome> outcomes = judge_controls(plan, results);
    std::cout << controls_table(outcomes) << checks_summary(outcomes) << "\n";
    if (int signal = interrupt_signal()) {
      std::cout << "exit " << exit_code_for_signal(signal) << ": interrupted\n";
      return exit_code_for_signal(signal);
    }
    if (require_gpu_)
      for (const auto& r : results)
        if (r.cause == SkipCause::no_device) {
          std::cout << "exit " << kExitFailed << ": --require-gpu: " << r.reason << "\n";
          return kExitFailed;
        }
    std::size_t caught = 0, skipped = 0;
    std::string skip_reason;
    for (const auto& o : outcomes) {
      caught += o.caught;
      skipped += o.skipped;
      if (o.skipped && skip_reason.empty()) skip_reason = o.observed;
    }
    if (skipped == outcomes.size()) {
      std::cout << "exit " << kExitNothingRan << ": nothing ran: " << results.front().reason << "\n";
      return kExitNothingRan;
    }
    // A control this machine cannot run (it needs 2 devices, a newer driver) did not
    // escape: it is counted apart, with the reason, and the rest must all be caught.
    const std::size_t runnable = outcomes.size() - skipped;
    const int code = caught == runnable ? kExitPassed : kExitFailed;
    std::cout << "self-test: " << caught << " of " << runnable << " known-bad controls caught";
    if (skipped) std::cout << "; " << skipped << " skipped here (" << skip_reason << ")";
    if (!full_) std::cout << " (one for each check in each family; --full runs all " << all.size() << ")";
    std::cout << "\n";
    std::cout << "exit " << code << ": " << (code ? "a known-bad control escaped: the harness can no longer fail"
                                                  : "every known-bad control was caught")
              << "\n";
    return code;
  }

 private:
  ExecutionCliOptions execution_;
  std::string device_ = "0";
  std::vector<std::string> adapters_;
  bool require_gpu_ = false;
  bool full_ = false;
};

}  // namespace

std::unique_ptr<Command> make_self_test_command() { return std::make_unique<SelfTestCommand>(); }

}  // namespace hostcb
