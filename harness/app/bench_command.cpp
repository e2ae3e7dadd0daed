// hostcb bench: what host callbacks cost on each path, beside a raw baseline.
#include <iostream>

#include "app/bench.hpp"
#include "app/bench_writer.hpp"
#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/options.hpp"

namespace hostcb {

namespace {

class BenchCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* bench = app.add_subcommand(
        "bench", "measure what host callbacks cost on each path, beside a raw baseline (needs a GPU)");
    bench->add_option("--launches", options_.launches, "launches per path and arm")
        ->type_name("N")
        ->check(CLI::Range(10, 10000000).description(""))
        ->capture_default_str();
    bench->add_option("--warmup", options_.warmup, "warm-up launches per arm")
        ->type_name("N")
        ->check(CLI::Range(2, 1000000).description(""))
        ->capture_default_str();
    bench->add_flag("--quick", options_.quick, "short scaling series (a smoke run)");
    add_report_option(bench, json_, "--json", "write versioned JSON here");
    add_report_option(bench, html_, "--html", "write a self-contained HTML page with SVG plots here");
    bench->add_flag("--enforce-bar", enforce_bar_,
                    "exit 1 when a direct-layer path misses the bar: the lower bound of its p50 ratio's 95% interval "
                    "is over 1.05");
    add_device_option(bench, device_, false);
    add_adapter_option(bench, adapters_);
    bench->footer(
        "The bar: each direct-layer path's p50 within 1.05x its raw baseline, judged on an interval. The arms\n"
        "alternate launch by launch, so launch i of each arm is a pair; the ratio of medians (harness p50 over\n"
        "raw p50) gets a 95% percentile bootstrap interval from 2000 resamples of the pairs (fixed seed). A path\n"
        "misses the bar only when the interval's lower bound is above 1.05 (the data show a cost over it);\n"
        "'within': the upper bound is at or below 1.05; 'straddles': the interval holds 1.05 (passes). A wide\n"
        "interval means too few launches: raise --launches.\n"
        "Exit codes: 0 measured, 1 a path misbehaved (or missed the bar with --enforce-bar), 2 usage error,\n"
        "77 no usable GPU.");
    return bench;
  }
  std::vector<std::string> adapters() const override { return adapters_; }

  int run(const Registry&, const std::string& command_line) override {
    check_report_options({&json_, &html_}, adapter_inputs(adapters_));
    options_.device = device_ordinal(device_);
    Environment env = environment_for(options_.device, command_line);
    if (!env.gpu_usable) {
      std::cout << "hostcb bench: " << env.gpu_unusable_reason << "\nexit " << kExitNothingRan << ": nothing ran\n";
      return kExitNothingRan;
    }
    BenchReport report = run_bench(options_, env);
    std::cout << bench_table(report);
    std::vector<ReportOutput> outputs;
    if (json_.given()) outputs.push_back({{json_.path, json_.what}, [&] { return bench_json(report); }});
    if (html_.given()) outputs.push_back({{html_.path, html_.what}, [&] { return bench_html(report); }});
    ReportsWritten done = write_reports(outputs);  // every one is attempted
    for (const auto& problem : done.failed) std::cerr << "hostcb: " << problem << "\n";
    if (!done.ok()) return kExitFailed;
    if (!report.problems.empty()) return kExitFailed;
    return enforce_bar_ && !bench_meets_bar(report) ? kExitFailed : kExitPassed;
  }

 private:
  BenchOptions options_;
  ReportOption json_{"", nullptr, "bench JSON"}, html_{"", nullptr, "bench HTML"};
  std::string device_ = "0";
  bool enforce_bar_ = false;
  std::vector<std::string> adapters_;
};

}  // namespace

std::unique_ptr<Command> make_bench_command() { return std::make_unique<BenchCommand>(); }

}  // namespace hostcb
