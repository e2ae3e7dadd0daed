// What a run produced: one Result per planned scenario, and the environment it ran in.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/axes.hpp"
#include "model/environment.hpp"
#include "model/failure.hpp"
#include "model/family.hpp"
#include "model/orphans.hpp"
#include "model/status.hpp"

namespace hostcb {

struct Result {
  std::string id;
  std::string family;
  Params params;
  Status status = Status::skipped;
  std::string reason;  // why it was skipped, or what stopped it (error)
  SkipCause cause = SkipCause::none;  // why it was skipped, as a value (not in results files)
  std::vector<Failure> failures;
  std::uint64_t failures_dropped = 0;  // beyond the channel's bound: counted, not kept
  double seconds = 0;
  std::vector<std::pair<std::string, std::string>> properties;
  int device = -1;  // the device it ran on when one run covered several (--device all)
  int iteration = 0;  // with run --repeat: which pass over the selection (1, 2, ...); 0 otherwise
  // xfail and xpass: the expectations entry that matched, "REASON (LINK)".
  std::string expectation;
};

// The one way to start a scenario's result: its id, family and params, and how it ended.
Result result_for(const Scenario& scenario, Status status, std::string reason = {}, double seconds = 0);
Result skipped_result(const Scenario& scenario, SkipCause cause, std::string reason, double seconds = 0);

struct Counts {
  std::size_t passed = 0, failed = 0, error = 0, skipped = 0, xfail = 0, xpass = 0;
  std::size_t total() const { return passed + failed + error + skipped + xfail + xpass; }
  // What makes a run red: a failure, an error, or a listed failure that passed.
  bool any_bad() const { return failed || error || xpass; }  // as is_bad() (status.hpp), counted
  void add(Status status);
};
Counts count_results(const std::vector<Result>& results);

struct RunReport {
  Environment environment;
  std::string started_utc;  // ISO 8601, e.g. 2026-11-30T00:07:10Z
  double seconds = 0;
  std::vector<Result> results;
  OrphanCounts orphans;  // host-function calls that found no scenario: they fail the run
};

// The id of the run's own result for orphans no scenario can be named for.
inline constexpr const char* kRunOrphansId = "hostcb/run=orphans";
// Orphans fail what they are blamed on, in the results themselves, so every report (JUnit,
// JSON, and what reads them: report, result, the Python API) says so: the last result of
// the scenario blamed (the one active last, as the blame itself) gets a failure naming
// them and is failed, unless already worse; orphans no scenario can be named for (before
// any, or one not in the results) fail the run's own result, kRunOrphansId, added last.
void fail_orphans_blame(std::vector<Result>& results, const OrphanCounts& orphans);
// What that does to one result blamed for `calls` orphan calls in all: one failure naming
// them (replacing an earlier count), failed unless already worse. The worker does it as it
// sends the result, so the scenario's own line says FAILED and its worker retires; the run
// does it again at the end with the calls that came later.
void fail_for_orphans(Result& result, std::uint64_t calls);

// The skipped results' reasons, each by its first line, with how many: sorted by reason.
std::vector<std::pair<std::string, std::size_t>> skip_reasons(const std::vector<Result>& results);

// What each loaded layer (Environment::adapters) ran: the results whose forward axis is that
// layer's name, counted, in the adapters' order. A layer selected and never reached counts 0.
std::vector<std::pair<std::string, Counts>> counts_per_layer(const RunReport& report);

// Text up to its first newline (report headlines: JUnit message attributes, tables).
std::string first_line(const std::string& text);
// One failure as reports show it: "[launch 2] [callback#3] file:line: message".
std::string describe_failure(const Failure& failure);
// Every failure of a result, one per line, with the dropped count last.
std::string describe_failures(const Result& result);

}  // namespace hostcb
