// The console: one line per scenario as it finishes, with its position in the plan as
// progress, the failures under it, a summary, and one verdict line naming the exit code.
// On a terminal, a progress line under them says how many are done and running.
// Colours on a terminal unless NO_COLOR is set (https://no-color.org) or --color says.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "model/enum_table.hpp"
#include "reports/progress_line.hpp"
#include "reports/reporter.hpp"

namespace spdlog {
class logger;
}

namespace hostcb {

enum class Verbosity {
  quiet,    // bad results (failed, error, xpass) and the summary
  normal,   // every result
  verbose,  // every result with its properties
};
enum class ColorMode { automatic, always, never };
inline constexpr EnumTable<ColorMode, 3> kColorModes{
    "--color", {{{ColorMode::automatic, "auto"}, {ColorMode::always, "always"}, {ColorMode::never, "never"}}}};

class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(Verbosity verbosity = Verbosity::normal, ColorMode color = ColorMode::automatic);
  void run_started(const Environment& environment, std::size_t planned) override;
  void on_start(const Scenario& scenario, std::size_t job) override;
  void on_result(const Result& result, std::size_t index, std::size_t total) override;
  void run_finished(const RunReport& report, ReportFiles& files) override;
  // The last line of a run: "exit 77: nothing ran: no usable CUDA device: ...".
  void verdict(int exit_code, const std::string& why);
  void error(const std::string& message);    // the tool's own trouble, on stderr

 private:
  void print_result(const Result& result, std::size_t index, std::size_t total);
  Verbosity verbosity_;
  std::shared_ptr<spdlog::logger> out_, err_;
  ProgressLine progress_{stdout};
};

}  // namespace hostcb
