#include "reports/console_reporter.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <map>

namespace hostcb {

ConsoleReporter::ConsoleReporter() {
  const char* no_color = std::getenv("NO_COLOR");
  auto mode = no_color && *no_color ? spdlog::color_mode::never : spdlog::color_mode::automatic;
  auto sink = std::make_shared<spdlog::sinks::stdout_color_sink_mt>(mode);
  log_ = std::make_shared<spdlog::logger>("hostcb", sink);
  log_->set_pattern("%^%v%$");
  log_->set_level(spdlog::level::info);
  log_->flush_on(spdlog::level::info);  // progress must show as it happens, also in CI logs
}

static spdlog::level::level_enum level_of(Status status) {
  switch (status) {
    case Status::passed: return spdlog::level::info;
    case Status::skipped:
    case Status::xfail: return spdlog::level::warn;
    default: return spdlog::level::err;
  }
}

void ConsoleReporter::on_result(const Result& r, std::size_t index, std::size_t total) {
  std::string position = fmt::format("[{:>{}}/{}]", index + 1, std::to_string(total).size(), total);
  std::string status = status_name(r.status);
  for (auto& c : status) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string line = fmt::format("{} {:<7} {} ({:.3f} s)", position, status, r.id, r.seconds);
  if (!r.reason.empty()) line += ": " + r.reason;
  log_->log(level_of(r.status), line);
  for (const auto& failure : r.failures) log_->log(level_of(r.status), "      " + describe_failure(failure));
  if (r.failures_dropped) log_->log(level_of(r.status), fmt::format("      ({} more dropped)", r.failures_dropped));
}

void ConsoleReporter::summary(const RunReport& report, const std::vector<std::string>& written_files) {
  Counts counts = count_results(report.results);
  auto level = counts.any_bad()              ? spdlog::level::err
               : counts.passed             ? spdlog::level::info
                                           : spdlog::level::warn;
  std::string expected;  // only when an expectations file was used
  if (counts.xfail || counts.xpass) expected = fmt::format(", {} xfail, {} xpass", counts.xfail, counts.xpass);
  log_->log(level, fmt::format("{} scenarios: {} passed, {} failed, {} errors, {} skipped{} in {:.2f} s", counts.total(),
                               counts.passed, counts.failed, counts.error, counts.skipped, expected, report.seconds));
  // The most common skip reasons, so "why did nothing run" is answered in one place.
  std::map<std::string, std::size_t> reasons;
  for (const auto& r : report.results)
    if (r.status == Status::skipped) ++reasons[r.reason];
  for (const auto& [reason, n] : reasons) log_->warn(fmt::format("  skipped {}: {}", n, reason));
  for (const auto& file : written_files) log_->info("  wrote " + file);
}

void ConsoleReporter::error(const std::string& message) { log_->error(message); }

}  // namespace hostcb
