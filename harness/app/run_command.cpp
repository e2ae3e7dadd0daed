// hostcb run: the selected scenarios, in workers, on one device or all; reports stream to
// the console and are written to JUnit and JSON; the run ends with a verdict line.
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/expectations.hpp"
#include "app/options.hpp"
#include "app/run_session.hpp"
#include "app/verdict.hpp"
#include "cuda/adapter_loader.hpp"
#include "model/errors.hpp"
#include "reports/console_reporter.hpp"
#include "reports/json_writer.hpp"
#include "reports/junit_writer.hpp"

namespace hostcb {

namespace {

constexpr const char* kRunFooter = R"(Isolation (--isolate): worker (default) runs scenarios in a worker process that is replaced when it
crashes or hangs; scenario gives each scenario a fresh process; none runs in-process (for a debugger).
Exit codes: 0 every scenario that ran passed (or failed as listed: xfail), 1 a scenario failed (a
host-function call after its scenario ended fails it) or errored, an xpass, or a report was not written,
2 usage error (nothing ran), 77 nothing ran (all skipped, e.g. no usable GPU; with --require-gpu no usable
GPU is 1), 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (reports are still written, unrun scenarios skipped).)";

class RunCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* run = app.add_subcommand("run", "run the selected scenarios and write reports");
    add_selection_options(run, selection_);
    add_report_option(run, junit_, "--junit", "write JUnit XML here (atomically)");
    add_report_option(run, json_, "--json", "write versioned JSON results here (atomically)");
    expectations_option_ =
        run->add_option("--expectations", expectations_path_,
                        "known behaviour (JSON with comments): listed failures become xfail, listed ones that pass "
                        "xpass; 'shipped' is the known layer bugs shipped with hostcb, read by default unless "
                        "--no-expectations or $HOSTCB_EXPECTATIONS says otherwise")
            ->type_name("FILE");
    run->add_flag("--no-expectations", no_expectations_,
                  "read no expectations file, not even the shipped one (as HOSTCB_EXPECTATIONS= does)")
        ->excludes(expectations_option_);
    add_device_option(run, device_, true);
    add_adapter_option(run, adapters_);
    add_execution_options(run, execution_);
    run->add_flag("--fail-fast,-x", fail_fast_, "stop at the first failure, error or xpass; the rest are skipped");
    run->add_option("--maxfail", max_failures_, "stop at the N-th failure, error or xpass (-x is --maxfail 1)")
        ->type_name("N")
        ->check(CLI::Range(1, 1000000).description(""));
    run->add_flag("--shuffle{random}", shuffle_,
                  "run in an order shuffled by SEED (a new one unless given; printed and recorded in the "
                  "reports' environment): the console shows the run's order, JUnit and JSON the plan's")
        ->type_name("[=SEED]");
    run->add_flag("--allow-empty", selection_.allow_empty,
                  "a filter pattern may match nothing: an empty selection runs nothing and exits 0, reports written");
    run->add_flag("--require-gpu", require_gpu_,
                  "a scenario skipped for want of a usable GPU fails the run (exit 1, with the reason) instead of "
                  "a run of skips (exit 77): for a CI job that must run on a GPU");
    run->add_option("--repeat", repeat_, "run the selection N times (results carry #iteration); with -j 1 all in the same worker")
        ->type_name("N")
        ->check(CLI::Range(1, 1000000).description(""))
        ->capture_default_str();
    run->add_flag("--until-fail", until_fail_,
                  "repeat until the first failure, error or xpass (at most --repeat times; 1000 unless given)");
    run->add_option("--budget", budget_s_,
                    "fuzz for SECONDS: run the selection, then again with every seed moved past the selection's "
                    "seeds, and so on, until SECONDS have passed (a scenario under way finishes; the rest of its "
                    "batch is left out, not reported)")
        ->type_name("SECONDS")
        ->check(seconds_between(1, 604800));
    run->add_flag("--quiet,-q", quiet_, "print only failures and the summary");
    run->add_flag("--verbose,-v", verbose_, "print every result's properties too");
    add_enum_option(run, "--color", color_, kColorModes, "auto (on a terminal, unless NO_COLOR is set), always or never")
        ->type_name("WHEN");
    run->footer(std::string(kFilterHelp) + "\n" + kRunFooter);
    return run;
  }
  std::vector<std::string> adapters() const override { return adapters_; }

  int run(const Registry& registry, const std::string& command_line) override {
    // Everything that can be refused is refused here, before anything runs.
    if (quiet_ && verbose_) throw UsageError("--quiet and --verbose contradict each other: give one");
    if (max_failures_ && (fail_fast_ || until_fail_))
      throw UsageError("--maxfail and --fail-fast or --until-fail overlap: give one (-x is --maxfail 1)");
    if (until_fail_ && repeat_ == 1) repeat_ = kUntilFailDefault;
    const std::optional<std::uint64_t> shuffle_seed = parse_shuffle(shuffle_);
    const std::vector<Scenario> selected = make_plan(registry, selection_);
    check_plan_size(selected.size(), repeat_, until_fail_ ? "--until-fail" : "--repeat");
    if (budget_s_ > 0) check_budget(selected);
    const std::optional<Expectations> expectations = load_run_expectations(registry);
    std::vector<ReportTarget> inputs = adapter_inputs(adapters_);  // no report may replace one
    if (expectations) inputs.push_back({expectations->path, "expectations file"});
    check_report_options({&junit_, &json_}, inputs);
    RunSession session({device_, execution_, adapters_, command_line, "", selection_.axes});
    session.use_expectations(expectations ? &*expectations : nullptr);
    if (expectations)
      for (const auto& warning : driver_version_warnings(*expectations, session.environment())) std::cerr << warning << "\n";
    session.stop_policy().set_rule(until_fail_                  ? StopPolicy::Rule::until_fail
                                   : fail_fast_ || max_failures_ ? StopPolicy::Rule::fail_fast
                                                                 : StopPolicy::Rule::never,
                                   max_failures_ ? max_failures_ : 1);
    if (require_gpu_) session.require_gpu();
    if (shuffle_seed) {
      session.shuffle(*shuffle_seed);
      std::cerr << "shuffled with seed " << *shuffle_seed << " (again: --shuffle=" << *shuffle_seed << ")\n";
    }
    MultiReporter reporters;
    ConsoleReporter& console = add_reporters(reporters);
    SessionOutcome outcome;
    if (budget_s_ > 0) {
      session.stop_policy().stop_after(budget_s_);
      auto batch = [&](std::int64_t k) { return shifted_seeds(registry, selected, k); };
      outcome = session.run_batches(batch, selected.size(), reporters);
    } else {
      outcome = session.run(selected, repeat_, reporters);
    }
    Verdict verdict =
        run_verdict({outcome.report.results, outcome.files.failed, outcome.interrupt_signal, require_gpu_});
    if (selected.empty() && verdict.exit_code == kExitNothingRan)  // --allow-empty, and nothing else went wrong
      verdict = {kExitPassed, "the filter selects no scenario, allowed by --allow-empty"};
    console.verdict(verdict.exit_code, verdict.why);
    return verdict.exit_code;
  }

 private:
  SelectionOptions selection_;
  ReportOption junit_{"", nullptr, "JUnit report"}, json_{"", nullptr, "JSON report"};
  std::string expectations_path_;
  bool no_expectations_ = false;
  CLI::Option* expectations_option_ = nullptr;
  std::string device_ = "0";
  std::vector<std::string> adapters_;
  ExecutionCliOptions execution_;
  static constexpr int kUntilFailDefault = 1000;
  double budget_s_ = 0;

  // The expectations file, its warnings printed (choose_expectations: --no-expectations,
  // --expectations, $HOSTCB_EXPECTATIONS, else the shipped file when found). An entry is
  // warned about when it matches no scenario this binary and its layers could run at all
  // (every id, controls included, at the default axes): a typo, or a scenario that no
  // longer exists. One that only this run's filter, --axis or layer leaves out says nothing:
  // a shipped file names every layer's bugs, and a run covers one (layers.sh). The shipped
  // file read by default is named on stderr when one of its entries may apply (its layers
  // are loaded), so that an xfail is never a surprise; otherwise it changes nothing.
  std::optional<Expectations> load_run_expectations(const Registry& registry) const {
    const ExpectationsChoice choice =
        choose_expectations(expectations_option_->count() ? std::optional<std::string>(expectations_path_) : std::nullopt,
                            no_expectations_, std::getenv(kExpectationsVariable));
    if (choice.path.empty()) return std::nullopt;
    std::vector<std::string> warnings;
    Expectations expectations;
    try {
      expectations = load_checked_expectations(choice.path, registry, selection_.axes, warnings);
    } catch (const UsageError& e) {
      // Whose file it is, and the way out, where the command line does not say so.
      if (choice.by_default)
        throw UsageError(str(e.what(), " (the shipped default expectations, read without --expectations; "
                                       "--no-expectations or HOSTCB_EXPECTATIONS= runs without them)"));
      if (!expectations_option_->count())
        throw UsageError(str(e.what(), " (named by $", kExpectationsVariable, "; set it empty for none, or give "
                                                                              "--expectations FILE)"));
      throw;
    }
    for (const auto& warning : warnings) std::cerr << warning << "\n";
    if (choice.by_default && layers_may_apply(expectations, loaded_adapters()))
      std::cerr << "hostcb: expectations: " << choice.path << " (" << choice.origin
                << "; --no-expectations or HOSTCB_EXPECTATIONS= for none)\n";
    return expectations;
  }

  // The file reporters, then the console (last: its summary names the files written).
  ConsoleReporter& add_reporters(MultiReporter& reporters) const {
    if (junit_.given()) reporters.add(std::make_unique<FileReporter>(junit_.path, junit_xml));
    if (json_.given()) reporters.add(std::make_unique<FileReporter>(json_.path, results_json));
    auto console = std::make_unique<ConsoleReporter>(
        quiet_ ? Verbosity::quiet : verbose_ ? Verbosity::verbose : Verbosity::normal, color_);
    ConsoleReporter& added = *console;
    reporters.add(std::move(console));
    return added;
  }

  // --budget needs scenarios with a seed (the fuzz family), on one device, once each.
  void check_budget(const std::vector<Scenario>& selected) const {
    if (device_ == kAllDevicesName || repeat_ > 1 || until_fail_ || !shuffle_.empty())
      throw UsageError(
          "--budget runs new seeds on one device: it does not combine with --device all, --repeat, --until-fail or --shuffle");
    for (const auto& s : selected)
      if (!s.params.has("seed"))
        throw UsageError("--budget runs new seeds, and '" + s.id + "' has none: select fuzz scenarios (--filter 'fuzz/*')");
  }

  // Batch k of a --budget run: the selection with every seed moved k times past the
  // selection's span of seeds (seeds 1-100: batch 1 is 101-200), resolved as ids.
  static std::vector<Scenario> shifted_seeds(const Registry& registry, const std::vector<Scenario>& selected,
                                             std::int64_t batch) {
    if (batch == 0) return selected;
    std::int64_t low = selected.front().params.get_count("seed"), high = low;
    for (const auto& s : selected) {
      low = std::min(low, s.params.get_count("seed"));
      high = std::max(high, s.params.get_count("seed"));
    }
    std::vector<Scenario> plan;
    for (const auto& s : selected) {
      Params moved = s.params.with("seed", std::to_string(s.params.get_count("seed") + batch * (high - low + 1)));
      plan.push_back(registry.resolve(scenario_id(s.family->name, s.family->axes, moved)));
    }
    return plan;
  }
  // --shuffle's text: empty when not given, "random" without a seed.
  static std::optional<std::uint64_t> parse_shuffle(const std::string& text) {
    if (text.empty()) return std::nullopt;
    if (text == "random") return (static_cast<std::uint64_t>(std::random_device{}()) << 32) | std::random_device{}();
    std::uint64_t seed = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (error != std::errc() || end != text.data() + text.size())
      throw UsageError("--shuffle='" + text + "' is not a seed (a whole number from 0 to 18446744073709551615)");
    return seed;
  }
  std::string shuffle_;
  int max_failures_ = 0;
  int repeat_ = 1;
  bool fail_fast_ = false, until_fail_ = false, quiet_ = false, verbose_ = false, require_gpu_ = false;
  ColorMode color_ = ColorMode::automatic;
};

}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace hostcb
