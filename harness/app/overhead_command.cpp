// hostcb overhead: the harness's own cost per launch against a bare host function.
#include <cstdio>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/options.hpp"
#include "app/overhead.hpp"

namespace hostcb {

namespace {

class OverheadCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* overhead = app.add_subcommand(
        "overhead", "measure the harness's cost per launch against a bare host function (needs a GPU)");
    overhead->add_option("--launches", launches_, "launches per round")
        ->type_name("N")
        ->check(CLI::Range(1, 100000000).description(""))
        ->capture_default_str();
    overhead->add_option("--rounds", rounds_, "rounds (median is reported)")
        ->type_name("N")
        ->check(CLI::Range(1, 1000).description(""))
        ->capture_default_str();
    add_device_option(overhead, device_, false);
    overhead->footer("Exit codes: 0 measured, 1 a problem was seen, 2 usage error, 77 no usable GPU.");
    return overhead;
  }

  int run(const Registry&, const std::string&) override {
    const int device = device_ordinal(device_);
    Environment env = environment_for(device, "");
    if (!env.gpu_usable) {
      std::printf("hostcb overhead: %s\nexit %d: nothing ran\n", env.gpu_unusable_reason.c_str(), kExitNothingRan);
      return kExitNothingRan;
    }
    OverheadReport report = measure_overhead(device, launches_, rounds_);
    std::printf("harness overhead on %s: %d launches x %d rounds, median per launch\n", env.devices[device].name.c_str(),
                launches_, rounds_);
    std::printf("%-10s %14s %14s %8s\n", "mode", "bare us", "harness us", "ratio");
    for (const auto& row : report.rows)
      std::printf("%-10s %14.3f %14.3f %8.3f\n", row.mode.c_str(), row.bare_us, row.harness_us, row.ratio());
    for (const auto& problem : report.problems) std::printf("problem: %s\n", problem.c_str());
    return report.problems.empty() ? kExitPassed : kExitFailed;
  }

 private:
  int launches_ = 20000, rounds_ = 9;
  std::string device_ = "0";
};

}  // namespace

std::unique_ptr<Command> make_overhead_command() { return std::make_unique<OverheadCommand>(); }

}  // namespace hostcb
