// Where a scenario's result changes across a layer's releases, in as few runs as that
// needs: git bisect's idea over versions in PEP 440 order (hostcb bisect,
// bisect_command.cpp, runs each one; this file only chooses which).
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hostcb {

// good: the scenario passed; bad: it failed or ended in an error; unknown: it could not
// be judged there (skipped, the layer would not install, no results).
enum class BisectVerdict { good, bad, unknown };
const char* bisect_verdict_name(BisectVerdict verdict);  // "good", "bad", "unknown"

struct VersionOutcome {
  BisectVerdict verdict = BisectVerdict::unknown;
  std::string detail;  // the status and its first reason, as shown
};

struct Bisection {
  std::vector<std::optional<VersionOutcome>> outcomes;  // per version, in order: nullopt if not run
  std::vector<std::size_t> order;                       // the versions in the order they ran
  // The boundary: versions `before` and `after` (before < after) judged differently, and
  // none between them judged (they did not run, or could not be judged: `between_unknown`).
  std::optional<std::size_t> before, after;
  bool between_unknown = false;
  std::string why_none;  // when there is no boundary: why, in words
};

// Judges `count` versions (oldest first) through `judge(i)`. Without `all`: the two ends
// (or the nearest to each that can be judged), then halves between the last pair that
// differ; with `all`: every version, and a boundary only when the judged versions change
// exactly once.
Bisection bisect_versions(std::size_t count, const std::function<VersionOutcome(std::size_t)>& judge, bool all);

}  // namespace hostcb
