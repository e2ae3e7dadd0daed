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

namespace {
int stream_a, stream_b;  // stand-ins for two streams
void* const kStreamA = &stream_a;
void* const kStreamB = &stream_b;

std::vector<std::string> messages(FakeDriver& driver) {
  std::vector<std::string> out;
  for (const auto& failure : driver.scenario.channel.drain().kept) out.push_back(failure.message);
  return out;
}
}  // namespace

TEST_CASE("a stream callback with an error status is a failure", "[probe]") {
  FakeDriver driver;
  Probe probe(1, 1);
  driver.arm(probe);
  Probe::status_fn()(kStreamA, 700, probe.stream_callback_user_data(0, kStreamA));
  CHECK(probe.verify().empty());
  auto said = messages(driver);
  REQUIRE(said.size() == 1);
  CHECK(contains(said[0], "[status] stream callback for host function #0 received status 700; expected 0 (success)"));
  CHECK(probe.callback_statuses() == std::vector<int>{700});
}

TEST_CASE("a stream callback that loses the sticky error it is due is a failure", "[probe]") {
  FakeDriver driver;
  Probe probe(2, 1);
  probe.expect_callback_status(719);  // an earlier fault: the callback must be told
  driver.arm(probe);
  Probe::status_fn()(kStreamA, 719, probe.stream_callback_user_data(0, kStreamA));
  CHECK(messages(driver).empty());
  Probe::status_fn()(kStreamA, 0, probe.stream_callback_user_data(1, kStreamA));  // the layer said success
  auto said = messages(driver);
  REQUIRE(said.size() == 1);
  CHECK(contains(said[0], "[status] stream callback for host function #1 received status 0; expected 719"));
  CHECK(probe.callback_statuses() == std::vector<int>{719, 0});
}

TEST_CASE("a stream callback must hand back the stream it was enqueued on", "[probe]") {
  FakeDriver driver;
  Probe probe(3, 1);
  driver.arm(probe);
  Probe::status_fn()(kStreamA, 0, probe.stream_callback_user_data(0, kStreamA));
  CHECK(messages(driver).empty());
  CHECK(probe.wrong_streams() == 0);
  Probe::status_fn()(kStreamA, 0, probe.stream_callback_user_data(1, kStreamB));  // enqueued on B, told A
  auto said = messages(driver);
  REQUIRE(said.size() == 1);
  CHECK(contains(said[0], "[stream] stream callback for host function #1 received stream "));
  CHECK(contains(said[0], "; it was enqueued on stream "));
  Probe::status_fn()(nullptr, 0, probe.stream_callback_user_data(2, kStreamB));  // told NULL
  said = messages(driver);
  REQUIRE(said.size() == 1);
  CHECK(contains(said[0], "received stream NULL"));
  CHECK(probe.wrong_streams() == 2);
  CHECK(probe.stream_callback_calls() == 3);
  CHECK(probe.verify().empty());  // the counts are right: only the stream was wrong
}

TEST_CASE("a stream callback for a site enqueued as no stream callback is a failure", "[probe]") {
  FakeDriver driver;
  Probe probe(1, 1);
  driver.arm(probe);
  Probe::status_fn()(kStreamA, 0, probe.user_data(0));  // the body declared no stream for it
  auto said = messages(driver);
  REQUIRE(said.size() == 1);
  CHECK(contains(said[0], "[stream] a stream callback for host function #0 received stream "));
}

TEST_CASE("a stream callback with a userData that is none of the scenario's is a stray call", "[probe]") {
  FakeDriver driver;
  Probe probe(1, 1);
  driver.arm(probe);
  void* site = probe.stream_callback_user_data(0, kStreamA);
  Probe::status_fn()(kStreamA, 0, static_cast<char*>(site) + 1);
  CHECK(probe.stray_calls() == 1);
  CHECK(probe.site_calls(0) == 0);
  CHECK(any_contains(probe.verify(), "[userdata] 1 call(s) carried a userData that is no host function"));
  CHECK(messages(driver).empty());  // never read as a site: no stream or status is judged
}

TEST_CASE("every problem the probe finds carries its check's tag", "[probe]") {
  FakeDriver driver;
  Probe probe(2, 1);
  probe.expect_in_order();
  driver.arm(probe);
  driver.call(probe.user_data(1));
  driver.call(probe.user_data(1));
  driver.call(reinterpret_cast<void*>(0x10));
  for (const auto& problem : probe.verify()) {
    INFO(problem);
    CHECK((problem.rfind("[count] ", 0) == 0 || problem.rfind("[userdata] ", 0) == 0 ||
           problem.rfind("[order] ", 0) == 0));
  }
  CHECK(any_contains(probe.verify(), "[order] call #1 was host function #1"));
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
