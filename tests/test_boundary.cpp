#include <stdexcept>
#include <thread>

#include "callback/active_scenario.hpp"
#include "callback/boundary.hpp"
#include "catch_compat.hpp"

using namespace hostcb;

namespace {
// Calls a C host function the way CUDA does: through a plain pointer, on another thread.
void call_from_driver_like_thread(HostFn fn, void* user_data, int times) {
  std::thread t([&] {
    for (int i = 0; i < times; ++i) fn(user_data);
  });
  t.join();
}
}  // namespace

TEST_CASE("an exception thrown in a callback becomes a failure with its launch, never a crash", "[boundary]") {
  ActiveScenario scenario("test/boundary");
  ScenarioActivation on(scenario);
  auto callback = make_guarded(
      [](std::int64_t call) {
        if (call == 2) throw std::runtime_error("boom on call 2");
      },
      HOSTCB_HERE);
  call_from_driver_like_thread(callback.fn(), callback.user_data(), 3);
  CHECK(callback.calls() == 3);

  DrainedFailures drained = scenario.channel.drain();
  REQUIRE(drained.kept.size() == 1);
  const Failure& f = drained.kept[0];
  CHECK(f.scenario_id == "test/boundary");
  CHECK(f.launch == 2);
  CHECK(contains(f.message, "boom on call 2"));
  CHECK(f.file == "tests/test_boundary.cpp");
  CHECK(f.line > 0);
  CHECK(contains(f.thread, "callback#"));
}

TEST_CASE("a LocatedError keeps the place it was raised and non-std exceptions are caught too", "[boundary]") {
  ActiveScenario scenario("test/boundary2");
  ScenarioActivation on(scenario);
  auto located = make_guarded(
      [](std::int64_t) { throw LocatedError("cuda said no", SourceLocation{"cases/x.cu", 42}); }, HOSTCB_HERE);
  auto weird = make_guarded([](std::int64_t) { throw 7; }, HOSTCB_HERE);
  call_from_driver_like_thread(located.fn(), located.user_data(), 1);
  call_from_driver_like_thread(weird.fn(), weird.user_data(), 1);
  DrainedFailures drained = scenario.channel.drain();
  REQUIRE(drained.kept.size() == 2);
  CHECK(drained.kept[0].file == "cases/x.cu");
  CHECK(drained.kept[0].line == 42);
  CHECK(contains(drained.kept[1].message, "not a std::exception"));
}

TEST_CASE("HOSTCB_EXPECT in a callback reports through the channel and carries on", "[boundary]") {
  ActiveScenario scenario("test/expect");
  ScenarioActivation on(scenario);
  int after = 0;
  auto callback = make_guarded(
      [&](std::int64_t call) {
        HOSTCB_EXPECT(call != 2, "call two is wrong");
        ++after;
      },
      HOSTCB_HERE);
  call_from_driver_like_thread(callback.fn(), callback.user_data(), 3);
  CHECK(after == 3);
  DrainedFailures drained = scenario.channel.drain();
  REQUIRE(drained.kept.size() == 1);
  CHECK(drained.kept[0].launch == 2);
  CHECK(contains(drained.kept[0].message, "call != 2"));
  CHECK(contains(drained.kept[0].message, "call two is wrong"));
}

TEST_CASE("on the runner thread HOSTCB_EXPECT carries the body's launch number", "[boundary]") {
  ActiveScenario scenario("test/runner");
  ScenarioActivation on(scenario);
  scenario.runner_launch = 5;
  HOSTCB_EXPECT(1 + 1 == 3, "arithmetic");
  DrainedFailures drained = scenario.channel.drain();
  REQUIRE(drained.kept.size() == 1);
  CHECK(drained.kept[0].launch == 5);
  CHECK(drained.kept[0].thread == "runner");
}

TEST_CASE("a failure with no active scenario is counted, not lost silently", "[boundary]") {
  std::uint64_t before = orphan_events();
  report_failure(__FILE__, __LINE__, "nobody listening");
  CHECK(orphan_events() == before + 1);
}

TEST_CASE("only one scenario is active at a time", "[boundary]") {
  ActiveScenario a("a"), b("b");
  ScenarioActivation on(a);
  CHECK_THROWS(ScenarioActivation(b));
  CHECK(active_scenario() == &a);
}
