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
RunOutcome outcome(std::vector<Result> results, std::uint64_t orphans = 0, std::vector<std::string> lost = {},
                   int signal = 0) {
  return RunOutcome{std::move(results), orphans, std::move(lost), signal};
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
  Verdict orphan = run_verdict(outcome({with(Status::passed)}, 2));
  CHECK(orphan.exit_code == kExitFailed);
  CHECK(orphan.why == "2 host-function calls after their scenario ended");
  Verdict lost = run_verdict(outcome({with(Status::passed)}, 0, {"cannot write x: No space left on device"}));
  CHECK(lost.exit_code == kExitFailed);
  CHECK(lost.why == "1 report not written");
}

TEST_CASE("an interrupt outranks failures", "[verdict]") {
  Verdict v = run_verdict(outcome(
      {with(Status::failed), with(Status::skipped, "interrupted by SIGTERM", SkipCause::interrupted)}, 0, {}, SIGTERM));
  CHECK(v.exit_code == 128 + SIGTERM);
  CHECK(v.why == "interrupted by SIGTERM; 1 scenario(s) not run");
}

TEST_CASE("a run of only xfails and skips passed nothing: 77, not 0", "[verdict]") {
  // A listed failure that failed as listed is no pass: with nothing else, nothing passed.
  Verdict v = run_verdict(outcome({with(Status::xfail), with(Status::skipped, "excluded: x"), with(Status::xfail)}));
  CHECK(v.exit_code == kExitNothingRan);
  CHECK(v.why == "nothing passed: 2 xfail, 1 skipped");
  CHECK(run_verdict(outcome({with(Status::xfail)})).exit_code == kExitNothingRan);
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
                                  0, {}, SIGINT));
  CHECK(v.why == "interrupted by SIGINT; 1 scenario(s) not run");
}
