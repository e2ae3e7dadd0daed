#include "model/result.hpp"

#include <algorithm>
#include <map>

#include "model/errors.hpp"

namespace hostcb {

std::string ExpectedVerdict::describe() const {
  std::string text;
  for (std::size_t i = 0; i < any_of.size(); ++i) text += (i ? " or " : "") + std::string(status_name(any_of[i]));
  if (!mentions.empty()) text += " mentioning '" + mentions + "'";
  return text;
}

Result result_for(const Scenario& scenario, Status status, std::string reason, double seconds) {
  Result r;
  r.id = scenario.id;
  r.family = scenario.family->name;
  r.params = scenario.params;
  r.status = status;
  r.reason = std::move(reason);
  r.seconds = seconds;
  return r;
}

Result skipped_result(const Scenario& scenario, SkipCause cause, std::string reason, double seconds) {
  Result r = result_for(scenario, Status::skipped, std::move(reason), seconds);
  r.cause = cause;
  return r;
}

bool is_bad(Status status) { return status == Status::failed || status == Status::error || status == Status::xpass; }

void Counts::add(Status status) {
  switch (status) {
    case Status::passed: ++passed; break;
    case Status::failed: ++failed; break;
    case Status::error: ++error; break;
    case Status::skipped: ++skipped; break;
    case Status::xfail: ++xfail; break;
    case Status::xpass: ++xpass; break;
  }
}

Counts count_results(const std::vector<Result>& results) {
  Counts counts;
  for (const auto& r : results) counts.add(r.status);
  return counts;
}

namespace {
std::string orphan_calls(std::uint64_t n) {
  return str(n, " host-function call", n == 1 ? "" : "s", " found no active scenario or armed probe");
}
constexpr const char* kOrphanBlame = ": a host function outlived this scenario or ran before its probe";
}  // namespace

void fail_for_orphans(Result& result, std::uint64_t calls) {
  const std::string message = orphan_calls(calls) + kOrphanBlame;
  auto earlier = std::find_if(result.failures.begin(), result.failures.end(), [](const Failure& f) {
    return f.message.find(kOrphanBlame) != std::string::npos && f.message.find(" found no active scenario") != std::string::npos;
  });
  if (earlier != result.failures.end())
    earlier->message = message;
  else
    result.failures.push_back({result.id, -1, "", "", 0, message});
  if (!is_bad(result.status)) result.status = Status::failed;
}

void fail_orphans_blame(std::vector<Result>& results, const OrphanCounts& orphans) {
  OrphanCounts nameless;
  for (const auto& [id, n] : orphans.by_scenario()) {
    auto blamed = std::find_if(results.rbegin(), results.rend(), [&](const Result& r) { return r.id == id; });
    if (id.empty() || blamed == results.rend()) {
      nameless.add(id, n);
      continue;
    }
    fail_for_orphans(*blamed, n);
  }
  if (nameless.empty()) return;
  Result run;
  run.family = "hostcb";
  run.params.add("run", "orphans");
  run.id = kRunOrphansId;
  run.status = Status::failed;
  run.reason = orphan_calls(nameless.total()) + " and can be blamed on no scenario of this run: " + nameless.describe();
  results.push_back(std::move(run));
}

std::vector<std::pair<std::string, std::size_t>> skip_reasons(const std::vector<Result>& results) {
  std::map<std::string, std::size_t> reasons;
  for (const auto& r : results)
    if (r.status == Status::skipped) ++reasons[first_line(r.reason)];
  return {reasons.begin(), reasons.end()};
}

std::vector<std::pair<std::string, Counts>> counts_per_layer(const RunReport& report) {
  std::vector<std::pair<std::string, Counts>> layers;
  for (const auto& adapter : report.environment.adapters) {
    Counts counts;
    for (const auto& r : report.results)
      if (r.params.has("forward") && r.params.get("forward") == adapter.name) counts.add(r.status);
    layers.emplace_back(adapter.name, counts);
  }
  return layers;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string describe_failure(const Failure& failure) {
  std::string text;
  if (failure.launch >= 0) text += str("[launch ", failure.launch, "] ");
  if (!failure.thread.empty()) text += "[" + failure.thread + "] ";
  if (!failure.file.empty()) text += str(failure.file, ":", failure.line, ": ");
  return text + failure.message;
}

std::string describe_failures(const Result& result) {
  std::string text;
  for (const auto& failure : result.failures) text += describe_failure(failure) + "\n";
  if (result.failures_dropped)
    text += str("(", result.failures_dropped, " more failure(s) dropped: the channel keeps the first ",
                result.failures.size(), ")\n");
  return text;
}

}  // namespace hostcb
