#include <sys/stat.h>

#include <fstream>
#include <memory>

#include "catch_compat.hpp"
#include "reports/reporter.hpp"

using namespace hostcb;

namespace {
std::string render(const RunReport& report) { return "results of " + std::to_string(report.results.size()) + "\n"; }

// Counts the events it sees, to check the fan-out hands each one on.
struct Counter final : Reporter {
  int started = 0, results = 0, finished = 0;
  void run_started(const Environment&, std::size_t) override { ++started; }
  void on_result(const Result&, std::size_t, std::size_t) override { ++results; }
  void run_finished(const RunReport&, ReportFiles&) override { ++finished; }
};
}  // namespace

TEST_CASE("every file report is attempted: one that cannot be written is named, the others are written", "[reporter]") {
  const std::string dir = std::string(HOSTCB_TEST_TMP) + "/reporter";
  ::mkdir(dir.c_str(), 0755);
  std::ofstream(dir + "/not-a-folder") << "a file where a folder should be\n";
  MultiReporter reporters;
  reporters.add(std::make_unique<FileReporter>(dir + "/not-a-folder/a.xml", render));
  reporters.add(std::make_unique<FileReporter>(dir + "/b.json", render));
  auto counter = std::make_unique<Counter>();
  Counter& seen = *counter;
  reporters.add(std::move(counter));

  RunReport report;
  report.results.resize(2);
  reporters.run_started(report.environment, 2);
  for (std::size_t i = 0; i < 2; ++i) reporters.on_result(report.results[i], i, 2);
  ReportFiles files;
  reporters.run_finished(report, files);

  REQUIRE(files.failed.size() == 1);
  CHECK(files.failed[0].find("not-a-folder/a.xml") != std::string::npos);
  CHECK(files.written == std::vector<std::string>{dir + "/b.json"});
  std::ifstream written(dir + "/b.json");
  std::string line;
  std::getline(written, line);
  CHECK(line == "results of 2");
  CHECK(seen.started == 1);
  CHECK(seen.results == 2);
  CHECK(seen.finished == 1);
}
