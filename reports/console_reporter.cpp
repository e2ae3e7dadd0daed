#include "reports/console_reporter.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>

#include "model/defaults.hpp"
#include "model/errors.hpp"
#include "reports/terminal_text.hpp"

namespace hostcb {

namespace {

spdlog::color_mode spdlog_mode(ColorMode color) {
  const char* no_color = std::getenv("NO_COLOR");
  if (color == ColorMode::always) return spdlog::color_mode::always;  // asked for: wins over NO_COLOR
  if (color == ColorMode::never || (no_color && *no_color)) return spdlog::color_mode::never;
  return spdlog::color_mode::automatic;
}

template <class Sink>
std::shared_ptr<spdlog::logger> make_logger(const char* name, ColorMode color) {
  auto logger = std::make_shared<spdlog::logger>(name, std::make_shared<Sink>(spdlog_mode(color)));
  logger->set_pattern("%^%v%$");
  logger->set_level(spdlog::level::info);
  logger->flush_on(spdlog::level::info);  // progress must show as it happens, also in CI logs
  return logger;
}

spdlog::level::level_enum level_of(Status status) {
  switch (status) {
    case Status::passed: return spdlog::level::info;
    case Status::skipped:
    case Status::xfail: return spdlog::level::warn;
    default: return spdlog::level::err;
  }
}

// A line on stdout, its control bytes escaped (reports/terminal_text.hpp).
void say(spdlog::logger& out, spdlog::level::level_enum level, const std::string& text) {
  out.log(level, terminal_text(text, true));
}

}  // namespace

ConsoleReporter::ConsoleReporter(Verbosity verbosity, ColorMode color)
    : verbosity_(verbosity),
      out_(make_logger<spdlog::sinks::stdout_color_sink_mt>("hostcb", color)),
      err_(make_logger<spdlog::sinks::stderr_color_sink_mt>("hostcb-errors", color)) {}

void ConsoleReporter::run_started(const Environment&, std::size_t planned) { progress_.planned(planned); }

void ConsoleReporter::on_start(const Scenario& scenario, std::size_t) { progress_.started(scenario.id); }

void ConsoleReporter::on_result(const Result& r, std::size_t index, std::size_t total) {
  print_result(r, index, total);
  progress_.finished(total);
}

void ConsoleReporter::print_result(const Result& r, std::size_t index, std::size_t total) {
  if (verbosity_ == Verbosity::quiet && !is_bad(r.status)) return;
  progress_.wipe();
  std::string position = fmt::format("[{:>{}}/{}]", index + 1, std::to_string(total).size(), total);
  std::string status = status_name(r.status);
  for (auto& c : status) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string iteration = r.iteration > 0 ? fmt::format(" #{}", r.iteration) : "";
  // An id is one line whatever a results file holds; a reason may span lines.
  std::string line = fmt::format("{} {:<7} {}{} ({:.3f} s)", position, status, terminal_text(r.id, false), iteration,
                                 r.seconds);
  if (!r.reason.empty()) line += ": " + r.reason;
  if (!r.expectation.empty()) line += " [expected: " + r.expectation + "]";
  const auto level = level_of(r.status);
  say(*out_, level, line);
  for (const auto& failure : r.failures) say(*out_, level, "      " + describe_failure(failure));
  if (r.failures_dropped) say(*out_, level, fmt::format("      ({} more dropped)", r.failures_dropped));
  if (verbosity_ == Verbosity::verbose) {
    for (const auto& [key, value] : r.properties) say(*out_, level, fmt::format("      {} = {}", key, value));
    return;
  }
  // What a failure offers: the command that re-runs it alone, the one that writes a reproducer.
  for (const auto& [key, value] : r.properties)
    if (key == "rerun" || key == "reproduce") say(*out_, level, fmt::format("      {}: {}", key, value));
}



void ConsoleReporter::run_finished(const RunReport& report, ReportFiles& files) {
  progress_.wipe();
  if (!report.orphans.empty()) say(*out_, spdlog::level::err, report.orphans.describe());  // a finding about the run
  Counts counts = count_results(report.results);
  auto level = counts.any_bad() ? spdlog::level::err : counts.passed ? spdlog::level::info : spdlog::level::warn;
  std::string expected;  // only when an expectations file was used
  if (counts.xfail || counts.xpass) expected = fmt::format(", {} xfail, {} xpass", counts.xfail, counts.xpass);
  out_->log(level, fmt::format("{} scenarios: {} passed, {} failed, {} errors, {} skipped{} in {:.2f} s", counts.total(),
                               counts.passed, counts.failed, counts.error, counts.skipped, expected, report.seconds));
  // A layer's own figure: the run may hold scenarios that never went through it.
  for (const auto& [layer, n] : counts_per_layer(report))
    out_->log(level, fmt::format("  through {}: {} scenarios: {} passed, {} failed, {} errors, {} skipped{}", layer,
                                 n.total(), n.passed, n.failed, n.error, n.skipped,
                                 n.xfail || n.xpass ? fmt::format(", {} xfail, {} xpass", n.xfail, n.xpass) : ""));
  // Skip reasons folded, so "why did nothing run" is answered in one place.
  for (const auto& [reason, n] : skip_reasons(report.results)) say(*out_, spdlog::level::warn, fmt::format("  skipped {}: {}", n, reason));
  for (const auto& file : files.written) say(*out_, spdlog::level::info, "  wrote " + file);
  for (const auto& problem : files.failed) err_->error(terminal_text("hostcb: " + problem, true));
}

void ConsoleReporter::verdict(int exit_code, const std::string& why) {
  progress_.wipe();
  auto level = exit_code == kExitPassed      ? spdlog::level::info
               : exit_code == kExitNothingRan ? spdlog::level::warn
                                              : spdlog::level::err;
  say(*out_, level, fmt::format("exit {}: {}", exit_code, why));
}

void ConsoleReporter::error(const std::string& message) {
  progress_.wipe();
  err_->error(terminal_text(message, true));
}

}  // namespace hostcb
