// Scenarios that share one device fault (model/shared_fault.hpp, exec/shared_fault.hpp),
// through the real supervisor and hostcb_stub workers: stub_shared_fault stands in for
// device_fault, its callback coming from a thread of its own after the strike.
#include <set>
#include <string>

#include "catch_compat.hpp"
#include "model/errors.hpp"
#include "stub_fixture.hpp"

using namespace hostcb;

namespace {

std::string id(const std::string& key, const std::string& check, int copy) {
  return "stub_shared_fault/key=" + key + "/check=" + check + "/copy=" + std::to_string(copy);
}

std::string property(const Result& r, const std::string& key) {
  for (const auto& [k, v] : r.properties)
    if (k == key) return v;
  return "";
}

}  // namespace

TEST_CASE("scenarios with one sharing key run as one program: one process, all armed before the first strike",
          "[shared_fault]") {
  StubFixture f;
  auto plan = f.plan({id("a", "pass", 1), id("b", "pass", 1), id("a", "pass", 2), id("a", "pass", 3), id("b", "pass", 2)});
  auto results = f.run(plan);
  REQUIRE(results.size() == plan.size());
  for (std::size_t i = 0; i < plan.size(); ++i) {
    INFO(results[i].id << ": " << results[i].reason);
    CHECK(results[i].id == plan[i].id);  // each keeps its own id and result, in plan order
    CHECK(results[i].status == Status::passed);
    CHECK(property(results[i], "callback_calls") == "1");  // its own callback reached its own probe
  }
  const std::string a = property(results[0], "process"), b = property(results[1], "process");
  CHECK(!a.empty());
  CHECK(a != b);  // one program a key
  for (std::size_t i : {0, 2, 3}) {
    CHECK(property(results[i], "process") == a);
    CHECK(property(results[i], "armed_at_first_strike") == "3");
    CHECK(property(results[i], "strikes") == "3");
    CHECK(property(results[i], "shared_fault") == "one fault for 3 scenarios");
  }
  CHECK(property(results[4], "process") == b);
  CHECK(property(results[4], "shared_fault") == "one fault for 2 scenarios");
}

TEST_CASE("a check that fails behind a shared fault fails alone, and every neighbour's verdict is its own run's",
          "[shared_fault]") {
  StubFixture f;
  for (const std::string broken : {"fail", "crash"}) {
    auto plan = f.plan({id("a", "pass", 1), id("a", broken, 1), id("a", "pass", 2)});
    auto results = f.run(plan);
    REQUIRE(results.size() == 3);
    INFO(broken << ": " << results[1].reason);
    CHECK(results[0].status == Status::passed);
    CHECK(results[1].status == (broken == "fail" ? Status::failed : Status::error));
    CHECK(results[2].status == Status::passed);
    // The fault did not stand: each ran again in a process of its own, its verdict that run's.
    std::set<std::string> processes;
    for (std::size_t i : {0, 2}) {
      INFO(property(results[i], "shared_fault"));
      CHECK(contains(property(results[i], "shared_fault"), "its shared fault did not stand (" + id("a", broken, 1)));
      CHECK(property(results[i], "strikes") == "1");
      processes.insert(property(results[i], "process"));
    }
    CHECK(processes.size() == 2);
    if (broken == "fail") CHECK(contains(results[1].failures.at(0).message, "the stub failed on purpose"));
    if (broken == "crash") CHECK(contains(results[1].reason, "SEGV"));  // ASan: "SEGV on"
  }
}

TEST_CASE("a call that comes after its scenario was judged behind a shared fault is that scenario's orphan",
          "[shared_fault]") {
  // "late" calls its callback once more 200 ms after the strike: after its own check and
  // result, while its neighbour ("slow") is being checked. Counted into its judged probe, the
  // call would go unseen and the fault stand; as its orphan, the fault does not stand, and
  // alone the second call is a second call.
  StubFixture f;
  auto plan = f.plan({id("a", "late", 1), id("a", "slow", 1)});
  auto results = f.run(plan);
  REQUIRE(results.size() == 2);
  INFO(results[0].reason << " / " << property(results[0], "shared_fault"));
  CHECK(results[0].status == Status::failed);
  CHECK(results[1].status == Status::passed);
  CHECK(contains(property(results[1], "shared_fault"), "its shared fault did not stand ("));
  CHECK(contains(property(results[1], "shared_fault"), id("a", "late", 1)));
}

TEST_CASE("isolate scenario shares no fault, and isolate none runs no fresh-process family", "[shared_fault]") {
  StubFixture f;
  auto plan = f.plan({id("a", "pass", 1), id("a", "pass", 2)});
  f.options.isolation = Isolation::scenario;
  auto results = f.run(plan);
  REQUIRE(results.size() == 2);
  CHECK(property(results[0], "process") != property(results[1], "process"));
  CHECK(property(results[0], "shared_fault").empty());
  CHECK(results[0].status == Status::passed);
  f.options.isolation = Isolation::none;
  results = f.run(plan);
  for (const auto& r : results) {
    CHECK(r.status == Status::skipped);  // a fresh-process family never runs in the supervisor
    CHECK(contains(r.reason, "needs a fresh process"));
  }
}

TEST_CASE("each pass of a repeated run has a fault of its own", "[shared_fault]") {
  StubFixture f;
  auto plan = f.plan({id("a", "pass", 1), id("a", "pass", 2)});
  std::vector<Job> jobs;
  for (int pass = 1; pass <= 2; ++pass)
    for (const auto& s : plan) jobs.push_back({&s, 0, pass});
  for (unsigned workers : {1u, 2u}) {
    f.options.workers = workers;
    auto results = execute_plan(jobs, f.env, f.options, nullptr).results;
    REQUIRE(results.size() == 4);
    for (const auto& r : results) CHECK(property(r, "shared_fault") == "one fault for 2 scenarios");
    CHECK(property(results[0], "process") == property(results[1], "process"));
    CHECK(property(results[2], "process") == property(results[3], "process"));
    CHECK(property(results[0], "process") != property(results[2], "process"));
  }
}
