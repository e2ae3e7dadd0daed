// One interface for everything that reports a run, after Catch2's event listeners: the
// run starts with its plan, each scenario starts, each result arrives in plan order, the
// run finishes. Results
// arrive with expectations already applied, so xfail and xpass are final for every
// reporter, the console's line included.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace hostcb {

// What the file reporters did at the end of a run. Each report is attempted whatever
// happened to the others; `failed` holds "cannot write PATH: why" for each one lost.
struct ReportFiles {
  std::vector<std::string> written;
  std::vector<std::string> failed;
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void run_started(const Environment& /*environment*/, std::size_t /*planned*/) {}
  // A scenario began (`job`: its place among the jobs the session handed over): what is
  // running when a run seems stuck. With several workers, starts may come in any order;
  // results still come in plan order.
  virtual void on_start(const Scenario& /*scenario*/, std::size_t /*job*/) {}
  virtual void on_result(const Result& /*result*/, std::size_t /*index*/, std::size_t /*total*/) {}
  virtual void run_finished(const RunReport& /*report*/, ReportFiles& /*files*/) {}
};

// Hands every event to each reporter in the order they were added (file reporters first,
// so that the console's summary can name what was written).
class MultiReporter final : public Reporter {
 public:
  void add(std::unique_ptr<Reporter> reporter) { reporters_.push_back(std::move(reporter)); }
  void run_started(const Environment& environment, std::size_t planned) override {
    for (auto& r : reporters_) r->run_started(environment, planned);
  }
  void on_start(const Scenario& scenario, std::size_t job) override {
    for (auto& r : reporters_) r->on_start(scenario, job);
  }
  void on_result(const Result& result, std::size_t index, std::size_t total) override {
    for (auto& r : reporters_) r->on_result(result, index, total);
  }
  void run_finished(const RunReport& report, ReportFiles& files) override {
    for (auto& r : reporters_) r->run_finished(report, files);
  }

 private:
  std::vector<std::unique_ptr<Reporter>> reporters_;
};

// What a report file holds while its run is under way: one error result,
// hostcb/run=unfinished, saying that the run has not written its results, and why when
// hostcb saw why (`ended_by`: "a second SIGINT"); empty, it names no cause (SIGKILL, a
// crash or the OOM killer leave no trace hostcb could see).
Result unfinished_run_marker(std::size_t planned, const std::string& ended_by = "");
inline constexpr const char* kUnfinishedRunId = "hostcb/run=unfinished";  // its id

// Writes one file when the run finishes (JUnit, JSON), whole or not at all
// (atomic_file.hpp). A failure is recorded in ReportFiles, never thrown. When the run
// starts, the file is replaced by one holding only unfinished_run_marker(): a hostcb
// killed before the end (SIGKILL) leaves that, not the previous run's report; a second
// SIGINT or SIGTERM leaves the marker naming it (last_words.hpp). Where not even the marker
// can be written (a full disk), the previous report is removed: no file, never a stale one.
class FileReporter final : public Reporter {
 public:
  using Render = std::string (*)(const RunReport&);
  FileReporter(std::string path, Render render) : path_(std::move(path)), render_(render) {}
  void run_started(const Environment& environment, std::size_t planned) override;
  void run_finished(const RunReport& report, ReportFiles& files) override;

 private:
  std::string path_;
  Render render_;
};

}  // namespace hostcb
