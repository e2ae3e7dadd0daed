#include <stdexcept>
#include <thread>
#include <vector>

#include "catch_compat.hpp"
#include "callback/probe.hpp"

using namespace hostcb;

namespace {
// Stands in for CUDA: calls the probe's C entry like the driver's thread would.
struct FakeDriver {
  ActiveScenario scenario{"test/probe"};
  ScenarioActivation on{scenario};
  void arm(Probe& probe) { scenario.probe.store(&probe); }
  void call(void* user_data, int times = 1) {
    std::thread t([&] {
      for (int i = 0; i < times; ++i) Probe::host_fn()(user_data);
    });
    t.join();
  }
};

bool any_contains(const std::vector<std::string>& problems, const std::string& part) {
  for (const auto& p : problems)
    if (contains(p, part)) return true;
  return false;
}
}  // namespace

TEST_CASE("an exact run verifies clean when counted from many threads at once", "[probe]") {
  FakeDriver driver;
  Probe probe(4, 5000);
  driver.arm(probe);
  std::vector<std::thread> threads;
  for (std::size_t site = 0; site < 4; ++site)
    threads.emplace_back([&, site] {
      for (int i = 0; i < 5000; ++i) Probe::entry(probe.user_data(site));
    });
  for (auto& t : threads) t.join();
  CHECK(probe.total_calls() == 20000);
  CHECK(probe.verify().empty());
  CHECK(probe.distinct_threads() == 4);
}

TEST_CASE("one call too few or too many fails", "[probe]") {
  FakeDriver driver;
  Probe probe(2, 3);
  driver.arm(probe);
  driver.call(probe.user_data(0), 3);
  driver.call(probe.user_data(1), 2);  // the bug: a later launch did not call it
  auto problems = probe.verify();
  CHECK(any_contains(problems, "host function #1 was called 2 times; expected exactly 3"));
  CHECK(any_contains(problems, "called 5 times in all; expected exactly 6"));

  driver.call(probe.user_data(1), 2);  // and now once too often
  CHECK(any_contains(probe.verify(), "host function #1 was called 4 times"));
}

TEST_CASE("a foreign or stale userData is a stray call, never dereferenced", "[probe]") {
  FakeDriver driver;
  Probe probe(2, 1);
  driver.arm(probe);
  driver.call(probe.user_data(0));
  driver.call(probe.user_data(1));
  driver.call(reinterpret_cast<void*>(0x10));                                        // garbage
  driver.call(static_cast<char*>(probe.user_data(0)) + 1);                           // inside a site
  driver.call(static_cast<char*>(probe.user_data(1)) + (static_cast<char*>(probe.user_data(1)) -
                                                        static_cast<char*>(probe.user_data(0))));  // one past
  CHECK(probe.stray_calls() == 3);
  CHECK(any_contains(probe.verify(), "3 call(s) carried a userData that is no host function"));
}

TEST_CASE("host functions must be called in chain order on every launch", "[probe]") {
  FakeDriver driver;
  Probe probe(2, 2);
  probe.expect_in_order();
  driver.arm(probe);
  driver.call(probe.user_data(0));
  driver.call(probe.user_data(1));
  for (const auto& problem : probe.verify()) CHECK_FALSE(contains(problem, "call #"));  // short, but in order
  driver.call(probe.user_data(1));    // launch 2 runs the second before the first
  driver.call(probe.user_data(0));
  auto problems = probe.verify();
  REQUIRE(problems.size() == 1);
  CHECK(contains(problems[0], "call #3 was host function #1"));
}

TEST_CASE("a site's action runs guarded, with its launch number", "[probe]") {
  FakeDriver driver;
  Probe probe(1, 3);
  probe.set_action(0, HOSTCB_HERE, [](std::int64_t launch) {
    if (launch == 3) throw std::runtime_error("third launch broke");
  });
  driver.arm(probe);
  driver.call(probe.user_data(0), 3);
  CHECK(probe.verify().empty());  // the count is right; the failure comes through the channel
  auto drained = driver.scenario.channel.drain();
  REQUIRE(drained.kept.size() == 1);
  CHECK(drained.kept[0].launch == 3);
  CHECK(contains(drained.kept[0].message, "third launch broke"));
  CHECK(drained.kept[0].file == "tests/test_probe.cpp");  // where the action was set, not the boundary
}

TEST_CASE("a stream callback with an error status is a failure", "[probe]") {
  FakeDriver driver;
  Probe probe(1, 1);
  driver.arm(probe);
  Probe::entry_with_status(probe.user_data(0), 700);
  CHECK(probe.verify().empty());
  auto drained = driver.scenario.channel.drain();
  REQUIRE(drained.kept.size() == 1);
  CHECK(contains(drained.kept[0].message, "received status 700; expected 0 (success)"));
}

TEST_CASE("a call with no armed probe is an orphan event", "[probe]") {
  std::uint64_t before = orphan_events();
  Probe probe(1, 1);
  Probe::entry(probe.user_data(0));  // no active scenario at all
  CHECK(orphan_events() == before + 1);
  CHECK(probe.total_calls() == 0);
}

TEST_CASE("calls past the record limit are still counted exactly", "[probe]") {
  FakeDriver driver;
  Probe probe(1, 1000, 10);
  driver.arm(probe);
  driver.call(probe.user_data(0), 1000);
  CHECK(probe.total_calls() == 1000);
  CHECK(probe.recorded_calls().size() == 10);
  CHECK(probe.verify().empty());
}
