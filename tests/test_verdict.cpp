#include <csignal>

#include "app/cli.hpp"
#include "app/verdict.hpp"
#include "catch_compat.hpp"

using namespace hostcb;

namespace {
Result with(Status status, std::string reason = "", SkipCause cause = SkipCause::none) {
  Result r;
  r.id = "f/x=1";
  r.status = status;
  r.reason = std::move(reason);
  r.cause = cause;
  return r;
}
RunOutcome outcome(std::vector<Result> results, std::vector<std::string> lost = {}, int signal = 0) {
  return RunOutcome{std::move(results), std::move(lost), signal};
}
}  // namespace

TEST_CASE("a run that can only skip exits 77 and says why nothing ran", "[verdict]") {
  Verdict v = run_verdict(outcome({with(Status::skipped, "no usable CUDA device: none"),
                                   with(Status::skipped, "excluded: x"), with(Status::skipped, "no usable CUDA device: none")}));
  CHECK(v.exit_code == kExitNothingRan);
  CHECK(v.why == "nothing ran: no usable CUDA device: none");
}

TEST_CASE("passes with skips exit 0", "[verdict]") {
  Verdict v = run_verdict(outcome({with(Status::passed), with(Status::skipped, "excluded: x"), with(Status::xfail)}));
  CHECK(v.exit_code == kExitPassed);
  CHECK(v.why == "every scenario that ran passed (1 passed, 1 xfail, 1 skipped)");
}

TEST_CASE("each kind of bad makes exit 1, and the line names it", "[verdict]") {
  CHECK(run_verdict(outcome({with(Status::passed), with(Status::failed)})).why == "1 failed");
  CHECK(run_verdict(outcome({with(Status::passed), with(Status::error)})).exit_code == kExitFailed);
  Verdict xpass = run_verdict(outcome({with(Status::passed), with(Status::xpass)}));
  CHECK(xpass.exit_code == kExitFailed);
  CHECK(xpass.why == "1 xpass (a listed failure passed)");
  Verdict lost = run_verdict(outcome({with(Status::passed)}, {"cannot write x: No space left on device"}));
  CHECK(lost.exit_code == kExitFailed);
  CHECK(lost.why == "1 report not written");
}

TEST_CASE("an interrupt outranks failures", "[verdict]") {
  Verdict v = run_verdict(outcome(
      {with(Status::failed), with(Status::skipped, "interrupted by SIGTERM", SkipCause::interrupted)}, {}, SIGTERM));
  CHECK(v.exit_code == 128 + SIGTERM);
  CHECK(v.why == "interrupted by SIGTERM; 1 scenario(s) not run");
}

TEST_CASE("a run of only xfails and skips ran: 0, as report and result say, never 77", "[verdict]") {
  // 77 means every selected scenario was skipped (CTest reads it as a skip, nightly.sh as
  // "no GPU"); a listed failure that failed as listed ran (issue 33, item 6).
  Verdict v = run_verdict(outcome({with(Status::xfail), with(Status::skipped, "excluded: x"), with(Status::xfail)}));
  CHECK(v.exit_code == kExitPassed);
  CHECK(v.why == "every scenario that ran passed or failed as listed (0 passed, 2 xfail, 1 skipped)");
  CHECK(run_verdict(outcome({with(Status::xfail)})).exit_code == kExitPassed);
}

TEST_CASE("orphans fail the result they are blamed on, or the run's own result", "[verdict]") {
  // Issue 33, item 1: in the results, so that JUnit, JSON, report, result and the Python
  // API all see it, and the verdict with them.
  std::vector<Result> results = {with(Status::passed), with(Status::passed), with(Status::xfail)};
  results[1].id = "f/x=2";
  results[1].iteration = 1;
  results.push_back(results[1]);
  results.back().iteration = 2;
  results[2].id = "f/x=3";
  OrphanCounts orphans;
  orphans.add("f/x=2", 3);
  orphans.add("f/x=3", 1);
  fail_orphans_blame(results, orphans);
  REQUIRE(results.size() == 4);
  CHECK(results[0].status == Status::passed);
  CHECK(results[1].status == Status::passed);  // the pass before: the blame goes to the one active last
  CHECK(results[3].status == Status::failed);
  REQUIRE(results[3].failures.size() == 1);
  CHECK(contains(results[3].failures[0].message, "3 host-function calls found no active scenario or armed probe"));
  CHECK(results[2].status == Status::failed);  // an xfail with an orphan is no listed failure
  CHECK(run_verdict(outcome(results)).exit_code == kExitFailed);

  OrphanCounts nameless;
  nameless.add("", 2);
  nameless.add("f/not=run", 1);
  std::vector<Result> passed = {with(Status::passed)};
  fail_orphans_blame(passed, nameless);
  REQUIRE(passed.size() == 2);
  CHECK(passed[0].status == Status::passed);
  CHECK(passed[1].id == kRunOrphansId);
  CHECK(passed[1].family == "hostcb");
  CHECK(passed[1].status == Status::failed);
  CHECK(contains(passed[1].reason, "3 host-function calls found no active scenario"));
  CHECK(run_verdict(outcome(passed)).why == "1 failed");
}

TEST_CASE("an error alone fails the run, and the line names it", "[verdict]") {
  Verdict v = run_verdict(outcome({with(Status::error, "crashed"), with(Status::skipped, "excluded: x")}));
  CHECK(v.exit_code == kExitFailed);
  CHECK(v.why == "1 error");
}

TEST_CASE("the scenarios an interrupt kept from running are counted by their cause, not their text", "[verdict]") {
  Verdict v = run_verdict(outcome({with(Status::skipped, "interrupted by SIGINT", SkipCause::interrupted),
                                   with(Status::skipped, "excluded: interrupted by design", SkipCause::excluded),
                                   with(Status::skipped, "no usable CUDA device: none", SkipCause::no_device)},
                                  {}, SIGINT));
  CHECK(v.why == "interrupted by SIGINT; 1 scenario(s) not run");
}

TEST_CASE("run --require-gpu: a scenario skipped for want of a GPU is exit 1 with the reason, never 77", "[verdict]") {
  const std::string reason = "no usable CUDA device: cudaGetDeviceCount found none";
  Verdict v = run_verdict({{with(Status::skipped, reason, SkipCause::no_device)}, {}, 0, true});
  CHECK(v.exit_code == kExitFailed);
  CHECK(v.why == "--require-gpu: " + reason);
  // Beside other bad results it is named too; beside passes it still fails the run.
  CHECK(run_verdict({{with(Status::failed), with(Status::skipped, reason, SkipCause::no_device)}, {}, 0, true}).why ==
        "1 failed, --require-gpu: " + reason);
  CHECK(run_verdict({{with(Status::passed), with(Status::skipped, reason, SkipCause::no_device)}, {}, 0, true})
            .exit_code == kExitFailed);
  // Other skips are not a missing GPU: excluded, a requirement, a stop.
  CHECK(run_verdict({{with(Status::skipped, "excluded: x", SkipCause::excluded),
                      with(Status::skipped, "needs 2 devices", SkipCause::requirement)},
                     {}, 0, true})
            .exit_code == kExitNothingRan);
  CHECK(run_verdict({{with(Status::passed), with(Status::skipped, "needs 2 devices", SkipCause::requirement)}, {}, 0, true})
            .exit_code == kExitPassed);
  // An interrupt still outranks it; without the flag the same run is 77.
  CHECK(run_verdict({{with(Status::skipped, reason, SkipCause::no_device)}, {}, SIGINT, true}).exit_code == 128 + SIGINT);
  CHECK(run_verdict(outcome({with(Status::skipped, reason, SkipCause::no_device)})).exit_code == kExitNothingRan);
}
