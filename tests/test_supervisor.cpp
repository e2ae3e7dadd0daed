#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>

#include "callback/active_scenario.hpp"
#include "reports/atomic_file.hpp"
#include "catch_compat.hpp"
#include "exec/supervisor.hpp"
#include "exec/interrupt.hpp"
#include "exec/output_tail.hpp"
#include "callback/progress.hpp"
#include "protocol/worker_protocol.hpp"
#include "runner/runner.hpp"
#include "reports/junit_writer.hpp"
#include "app/selftest.hpp"
#include "stub_fixture.hpp"

using namespace hostcb;

namespace {

using Fixture = StubFixture;

std::string id(const std::string& behave, int copy = 1) {
  return "stub/behave=" + behave + "/copy=" + std::to_string(copy);
}

void check_each_once(const std::vector<Scenario>& plan, const std::vector<Result>& results) {
  REQUIRE(results.size() == plan.size());
  for (std::size_t i = 0; i < plan.size(); ++i) CHECK(results[i].id == plan[i].id);
}

}  // namespace

TEST_CASE("a crash mid-run is an error naming the signal, the launch and the worker's last words", "[supervisor]") {
  Fixture f;
  auto plan = f.plan({id("pass"), id("crash"), id("pass", 2)});
  auto results = f.run(plan);
  check_each_once(plan, results);
  CHECK(results[0].status == Status::passed);
  REQUIRE(results[1].status == Status::error);
  INFO(results[1].reason);
  // Plainly a signal; under AddressSanitizer, its report of the SEGV and exit code 1.
  const bool plain = contains(results[1].reason, "killed by signal SIGSEGV (11) at launch 2 of 5; 0 host-function calls had run");
  const bool asan = contains(results[1].reason, "at launch 2 of 5; 0 host-function calls had run\nsanitizer: ") && contains(results[1].reason, "SEGV");
  CHECK((plain || asan));
  CHECK(contains(results[1].reason, "stub: about to crash"));
  CHECK(results[2].status == Status::passed);  // a new worker took over
}

TEST_CASE("each job that starts is told when it starts, one that never runs is not", "[supervisor]") {
  Fixture f;
  auto plan = f.plan({id("pass"), "stub_forward/forward=direct/op=launch_host_func", id("crash"), id("pass", 2)});
  REQUIRE_FALSE(plan[1].excluded_reason.empty());  // skipped without running
  for (Isolation isolation : {Isolation::worker, Isolation::scenario}) {
    f.options.isolation = isolation;
    std::vector<std::size_t> started;
    f.options.on_start = [&](std::size_t job) { started.push_back(job); };
    auto results = f.run(plan);
    CHECK(started == std::vector<std::size_t>{0, 2, 3});  // the crash had started: a hang would show it
    CHECK(results[2].status == Status::error);
  }
}

TEST_CASE("failures reported before a crash still reach the report", "[supervisor]") {
  Fixture f;
  auto plan = f.plan({id("fail_then_crash")});
  auto results = f.run(plan);
  INFO(results[0].reason);
  REQUIRE(results[0].status == Status::error);
  CHECK(contains(results[0].reason, "hostcb failure: [launch 1] [runner]"));
  CHECK(contains(results[0].reason, "a failure the crash must not swallow"));
}

TEST_CASE("a hang past the time limit is killed and reported with its launch, then the run goes on", "[supervisor]") {
  Fixture f;
  f.options.timeout_s = 0.5;
  auto plan = f.plan({id("hang"), id("pass")});
  auto start = std::chrono::steady_clock::now();
  auto results = f.run(plan);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  check_each_once(plan, results);
  INFO(results[0].reason);
  REQUIRE(results[0].status == Status::error);
  CHECK(contains(results[0].reason, "timed out at launch 3 of 5 after 0.5 s; 0 host-function calls had run"));
  // Where it hung: each thread as the kernel sees it, and the body's own stack.
  CHECK(contains(results[0].reason, "\nthreads when it was stopped:\n  "));
  CHECK(contains(results[0].reason, ": sleeping"));
  CHECK(contains(results[0].reason, "hostcb stack: thread "));
  CHECK(contains(results[0].reason, "nanosleep <"));
#ifndef __SANITIZE_ADDRESS__  // an ASan build's stub resolves its own frames to offsets only
  CHECK(contains(results[0].reason, "< hostcb::Runner::run <"));
#endif
  CHECK(results[1].status == Status::passed);
  // Killed at its limit, not left to sleep: the scenario's own time is the limit plus
  // the kill. The wall time also holds two worker start-ups, which take seconds on a
  // loaded GPU machine (CUDA initialises in each; 9.4 s seen under ctest -j32 there).
  CHECK(results[0].seconds < 3);
  CHECK(took < 30);
}

TEST_CASE("a family's own time limit wins over the run's", "[supervisor]") {
  Fixture f;
  f.options.timeout_s = 20;  // the run's limit; stub/behave=hang_own_limit has its own 0.5 s
  auto plan = f.plan({id("hang_own_limit"), id("pass")});
  REQUIRE(plan[0].timeout_s == 0.5);
  auto start = std::chrono::steady_clock::now();
  auto results = f.run(plan);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  check_each_once(plan, results);
  INFO(results[0].reason);
  REQUIRE(results[0].status == Status::error);
  CHECK(contains(results[0].reason, "timed out at launch 3 of 5 after 0.5 s"));
  CHECK(results[0].seconds < 3);
  CHECK(results[1].status == Status::passed);
  CHECK(took < 15);  // well under the run's 20 s
}

TEST_CASE("failures beyond the channel's bound are counted across the worker boundary", "[supervisor]") {
  Fixture f;
  for (Isolation isolation : {Isolation::worker, Isolation::none}) {
    f.options.isolation = isolation;
    auto results = f.run(f.plan({id("many_failures")}));
    INFO("isolation " << static_cast<int>(isolation) << ": " << results.at(0).reason);
    REQUIRE(results.at(0).status == Status::failed);
    CHECK(results[0].failures.size() == 32);
    CHECK(results[0].failures_dropped == 8);
    CHECK(results[0].failures.back().message == "expected i == 0: failure 32 of 40");
    CHECK(contains(describe_failures(results[0]), "(8 more failure(s) dropped: the channel keeps the first 32)"));
  }
}

TEST_CASE("an orphan callback reaches the supervisor in every isolation mode, blamed on its scenario", "[supervisor]") {
  Fixture f;
  for (Isolation isolation : {Isolation::worker, Isolation::scenario, Isolation::none}) {
    f.options.isolation = isolation;
    ExecutedPlan executed = f.execute(f.plan({id("pass"), id("orphan"), id("pass", 2)}));
    INFO("isolation " << static_cast<int>(isolation));
    // The scenario the orphan is blamed on is failed on its own line (issue 42, item 7: it was
    // printed PASSED and kept its worker); the others are as they were.
    CHECK(executed.results[0].status == Status::passed);
    CHECK(executed.results[2].status == Status::passed);
    REQUIRE(executed.results[1].status == Status::failed);
    CHECK(contains(executed.results[1].failures.back().message,
                   "1 host-function call found no active scenario or armed probe: a host function outlived"));
    if (isolation == Isolation::worker) {  // and its worker ran nothing after it
      bool retired = false;
      for (const auto& [key, value] : executed.results[1].properties) retired = retired || key == "worker_retired";
      CHECK(retired);
    }
    CHECK(executed.orphans.total() == 1);  // what execute_plan returns: no global in between
    REQUIRE(executed.orphans.by_scenario().size() == 1);
    CHECK(executed.orphans.by_scenario()[0].first == id("orphan"));
    CHECK(contains(executed.orphans.describe(), ": 1 during or after stub/behave=orphan/copy=1."));
  }
}

TEST_CASE("abnormal exits and unreadable events are errors of the scenario in hand", "[supervisor]") {
  Fixture f;
  auto plan = f.plan({id("exit"), id("abort"), id("garbage"), id("fail"), id("pass")});
  auto results = f.run(plan);
  check_each_once(plan, results);
  for (const auto& r : results) UNSCOPED_INFO(r.id << ": " << r.reason);
  CHECK(results[0].status == Status::error);
  CHECK(contains(results[0].reason, "exited with code 3 at launch 1 of 5; 0 host-function calls had run"));
  CHECK(results[1].status == Status::error);
  CHECK(contains(results[1].reason, "SIGABRT"));
  CHECK(results[2].status == Status::error);
  CHECK(contains(results[2].reason, "unreadable event"));
  CHECK(contains(results[2].reason, "this is not an event"));
  CHECK(results[3].status == Status::failed);  // an ordinary failure travels back intact
  CHECK(contains(results[3].failures.at(0).message, "the stub failed on purpose"));
  CHECK(results[4].status == Status::passed);
}

TEST_CASE("isolate scenario gives every scenario its own worker", "[supervisor]") {
  Fixture f;
  f.options.isolation = Isolation::scenario;
  auto plan = f.plan({id("pass"), id("crash"), id("fail"), id("pass", 2)});
  auto results = f.run(plan);
  check_each_once(plan, results);
  CHECK(results[0].status == Status::passed);
  CHECK(results[1].status == Status::error);
  CHECK(results[2].status == Status::failed);
  CHECK(results[3].status == Status::passed);
}

TEST_CASE("isolate none runs in this process", "[supervisor]") {
  Fixture f;
  f.options.isolation = Isolation::none;
  f.options.worker_command = {"/nonexistent"};  // never used
  auto plan = f.plan({id("pass"), id("fail")});
  auto results = f.run(plan);
  CHECK(results[0].status == Status::passed);
  CHECK(results[1].status == Status::failed);
}

TEST_CASE("a worker that cannot start makes errors, not a crash", "[supervisor]") {
  Fixture f;
  f.options.worker_command = {"/nonexistent/hostcb", "worker"};
  auto plan = f.plan({id("pass"), id("pass", 2)});
  auto results = f.run(plan);
  check_each_once(plan, results);
  for (const auto& r : results) CHECK(r.status == Status::error);
}

TEST_CASE("a worker that hangs before its first scenario is timed out, however many ids wait for it", "[supervisor]") {
  // Its adapter's init hangs in a worker only; 4,000 ids are more than a pipe holds.
  Fixture f;
  f.options.worker_command = protocol::worker_command(HOSTCB_STUB_EXE, {HOSTCB_FAKE_INIT_HANGS_IN_WORKER});
  f.options.startup_allowance_s = 1;
  f.options.timeout_s = 0.5;
  std::vector<std::string> ids;
  for (int copy = 1; copy <= 4000; ++copy) ids.push_back(id("pass", copy));
  auto plan = f.plan(ids);
  clear_interrupt();
  auto start = std::chrono::steady_clock::now();
  auto results = f.run(plan, [](const Result&, std::size_t index) {
    if (index == 0) request_interrupt(SIGINT);  // one start-up is enough: the rest is skipped
  });
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  clear_interrupt();
  check_each_once(plan, results);
  INFO(results[0].reason);
  CHECK(results[0].status == Status::error);
  CHECK(contains(results[0].reason, "the worker did not start it within 1 s"));
  CHECK(results[1].cause == SkipCause::interrupted);
  CHECK(took < 15);
}

TEST_CASE("an interrupt stops the worker and skips what did not run", "[supervisor]") {
  Fixture f;
  std::vector<std::string> ids;
  for (int copy = 1; copy <= 6; ++copy) ids.push_back(id("slow", copy));
  auto plan = f.plan(ids);
  clear_interrupt();
  auto results = f.run(plan, [](const Result&, std::size_t index) {
    if (index == 0) request_interrupt(SIGINT);
  });
  int signal_seen = interrupt_signal();
  clear_interrupt();
  check_each_once(plan, results);
  CHECK(signal_seen == SIGINT);
  CHECK(results[0].status == Status::passed);
  for (std::size_t i = 1; i < results.size(); ++i) {
    CHECK(results[i].status == Status::skipped);
    CHECK(results[i].reason == "interrupted by SIGINT");
  }
}

TEST_CASE("a scenario an interrupt stops in flight keeps the time it ran", "[supervisor]") {
  Fixture f;
  auto plan = f.plan({id("hang"), id("pass")});
  clear_interrupt();
  // The interrupt comes 0.6 s after the hang started, however long its worker took to start
  // (under load, seconds: a fixed delay from the run's start once left it 0.44 s).
  std::atomic<bool> started{false};
  f.options.on_start = [&](std::size_t) { started = true; };
  std::thread interrupter([&] {
    while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    request_interrupt(SIGINT);
  });
  auto results = f.run(plan);
  interrupter.join();
  clear_interrupt();
  check_each_once(plan, results);
  CHECK(results[0].status == Status::skipped);
  CHECK(results[0].reason == "interrupted by SIGINT");
  CHECK(results[0].seconds > 0.5);  // was 0: the time of a scenario that had run for seconds was lost
  CHECK(results[0].seconds < 30);
  CHECK(results[1].seconds == 0);   // never started
}

TEST_CASE("a worker's output is attributed by the marks in it, not by when it was read", "[supervisor]") {
  OutputTail tail;
  std::string text = "the stub failed on purpose\n" + protocol::output_mark("end", 0) + "partial line of 0, then " +
                     protocol::output_mark("start", 1) + "stub: about to crash\n";
  tail.feed(text.data(), 10);  // in pieces, as a pipe delivers it
  tail.feed(text.data() + 10, text.size() - 10);
  std::string said = tail.describe();
  CHECK(said == "what the worker wrote:\n  stub: about to crash\n");
  OutputTail quiet;
  std::string only_marks = protocol::output_mark("start", 0);
  quiet.feed(only_marks.data(), only_marks.size());
  CHECK(quiet.describe().empty());
}

#if HOSTCB_HAVE_XMLLINT
TEST_CASE("whatever the workers did, the JUnit report lists each scenario once and validates", "[supervisor]") {
  Fixture f;
  f.options.timeout_s = 0.5;
  auto plan = f.plan({id("pass"), id("crash"), id("hang"), id("exit"), id("garbage"), id("fail"), id("pass", 2)});
  RunReport report;
  report.started_utc = "2026-11-30T00:00:00Z";
  report.environment = f.env;
  report.environment.hostname = "host";
  report.results = f.run(plan);
  std::string path = std::string(HOSTCB_TEST_TMP) + "/supervisor.xml";
  write_file_atomically(path, junit_xml(report));
  std::string command = std::string(HOSTCB_XMLLINT) + " --noout --schema " + HOSTCB_JUNIT_XSD + " " + path;
  CHECK(std::system(command.c_str()) == 0);
  std::ifstream in(path);
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& s : plan) {
    std::string name = "name=\"" + s.id.substr(s.id.find('/') + 1) + "\"";
    CHECK(xml.find(name) != std::string::npos);
    CHECK(xml.find(name) == xml.rfind(name));
  }
}
#endif

TEST_CASE("a control is caught only with the right status and the words it must mention", "[selftest]") {
  ExpectedVerdict timed_out{{Status::error}, "timed out at launch 2"};
  Result r;
  r.id = "x/y=1";
  r.status = Status::error;
  r.reason = "the worker was killed by signal SIGSEGV (11) at launch 2 of 3";
  CHECK_FALSE(verdict_matches(r, timed_out));  // the right status for the wrong reason
  r.reason = "timed out at launch 2 of 3 after 0.5 s";
  CHECK(verdict_matches(r, timed_out));
  r.status = Status::failed;
  CHECK_FALSE(verdict_matches(r, timed_out));  // the right words, the wrong status
  ExpectedVerdict failed_with{{Status::failed, Status::error}, "status 700"};
  r.reason.clear();
  r.failures = {{r.id, 1, "callback#2", "cases/x.cu", 3, "received status 0; expected 0 (success)"}};
  CHECK_FALSE(verdict_matches(r, failed_with));
  r.failures.push_back({r.id, 2, "callback#2", "cases/x.cu", 3, "received status 700; expected 0"});
  CHECK(verdict_matches(r, failed_with));  // any failure's message may carry the words
  CHECK(verdict_matches(r, ExpectedVerdict{{Status::failed}, ""}));  // no words asked for: the status decides
}

TEST_CASE("the self-test names the checks that caught a control by their tags", "[selftest]") {
  Result r;
  r.id = "x/y=1";
  r.status = Status::failed;
  r.failures = {{r.id, 1, "callback#2", "cases/x.cu", 3, "[stream] stream callback for host function #0 received stream NULL"},
                {r.id, 2, "runner", "cases/x.cu", 4, "expected a == b: [update] the exec made before [sic] called #1"},
                {r.id, 2, "runner", "cases/x.cu", 5, "[stream] again, and [Not] a tag, nor [a-b] or []"},
                {r.id, -1, "runner", "", 0, "[count] host function #1 was called 1 times; expected exactly 2"}};
  CHECK(checks_that_caught(r) == std::vector<std::string>{"[stream]", "[update]", "[sic]", "[count]"});
  r.status = Status::error;
  r.failures.clear();
  CHECK(checks_that_caught(r) == std::vector<std::string>{"error"});  // a crash, a timeout: no check spoke
  std::vector<ControlOutcome> outcomes = {{"a", "failed", "failed", {"[stream]", "[count]"}, true, false},
                                          {"b", "error", "error", {"error"}, true, false},
                                          {"c", "failed", "failed", {"[stream]"}, true, false},
                                          {"d", "failed", "passed", {}, false, false}};
  CHECK(checks_summary(outcomes) == "caught by: [stream] 2, [count] 1, error 1");  // d escaped: not counted
  std::string table = controls_table(outcomes);
  CHECK(contains(table, "[stream] [count]"));
  CHECK(contains(table, "  by  "));
}

TEST_CASE("the self-test judges controls: caught ones pass, one that escapes is reported", "[supervisor][selftest]") {
  Fixture f;
  Selection only;
  only.only_controls = true;
  only.filter = "stub_control";
  auto plan = f.registry.plan(only);
  REQUIRE(plan.size() == 4);
  auto outcomes = judge_controls(plan, f.run(plan));
  REQUIRE(outcomes.size() == 4);
  CHECK(outcomes[0].caught);   // caught_fail
  CHECK(outcomes[1].caught);   // caught_crash
  CHECK(outcomes[1].checks == std::vector<std::string>{"error"});
  CHECK_FALSE(outcomes[2].caught);  // escapes: passed although it must fail
  CHECK_FALSE(outcomes[2].skipped);
  CHECK(contains(controls_table(outcomes), "stub_control/case=escapes"));
  CHECK(contains(outcomes[2].observed, "passed"));
  // A control this machine cannot run is neither caught nor an escape.
  INFO(outcomes[3].id << ": " << outcomes[3].observed);
  CHECK_FALSE(outcomes[3].caught);
  CHECK(outcomes[3].skipped);
  CHECK(contains(outcomes[3].observed, "needs CUDA runtime 99.0"));
}

TEST_CASE("workers on several devices run only their own device's jobs, in plan order", "[supervisor][pool]") {
  Fixture f;
  std::vector<Scenario> plan;
  std::vector<Job> jobs;
  for (int copy = 1; copy <= 6; ++copy)
    for (int device : {0, 1}) plan.push_back(f.registry.resolve(str("stub_device/device=", device, "/copy=", copy)));
  for (const auto& s : plan) jobs.push_back({&s, std::stoi(s.params.get("device"))});
  for (unsigned workers : {1u, 2u, 3u}) {
    f.options.workers = workers;
    std::vector<std::size_t> order;
    ExecutedPlan ran = execute_plan(jobs, f.env, f.options, [&](const Result&, std::size_t k) { order.push_back(k); });
    INFO(workers << " workers");
    check_each_once(plan, ran.results);
    for (const Result& r : ran.results) {
      INFO(r.id << ": " << r.reason << (r.failures.empty() ? "" : r.failures.front().message));
      CHECK(r.status == Status::passed);
    }
    std::vector<std::size_t> in_order(jobs.size());
    for (std::size_t k = 0; k < in_order.size(); ++k) in_order[k] = k;
    CHECK(order == in_order);
  }
}

TEST_CASE("with one worker the jobs run in plan order, those that run alone too, the others in one worker", "[supervisor][pool]") {
  Fixture f;
  f.options.workers = 1;
  auto plan = f.plan({"stub_flaky", "stub_fresh/copy=1", id("pass")});
  std::vector<Job> jobs;
  for (int pass = 1; pass <= 3; ++pass)
    for (const auto& s : plan) jobs.push_back({&s, 0, pass});
  std::vector<std::size_t> started;
  f.options.on_start = [&](std::size_t job) { started.push_back(job); };
  auto results = execute_plan(jobs, f.env, f.options, nullptr).results;
  REQUIRE(results.size() == 9);
  std::vector<std::size_t> in_order(9);
  for (std::size_t k = 0; k < 9; ++k) in_order[k] = k;
  CHECK(started == in_order);
  // stub_flaky fails at its third call in a process: all three passes ran in one worker,
  // the fresh-process scenario between them in processes of its own.
  CHECK(results[0].status == Status::passed);
  CHECK(results[3].status == Status::passed);
  CHECK(results[6].status == Status::failed);
  for (std::size_t k : {1, 4, 7}) CHECK(results[k].status == Status::passed);
}

TEST_CASE("a stop with one worker leaves out only what comes after the result that stopped it", "[supervisor][pool]") {
  Fixture f;
  f.options.workers = 1;
  bool failed = false;
  f.options.on_arrival = [&](const Result& r, std::size_t) { failed = failed || r.status == Status::failed; };
  f.options.stop_requested = [&] { return failed; };
  f.options.stop_reason = "not run: stopped";
  auto results = f.run(f.plan({"stub_fresh/copy=1", id("pass"), "stub_fresh/copy=2", id("fail"), "stub_fresh/copy=3"}));
  REQUIRE(results.size() == 5);
  CHECK(results[0].status == Status::passed);  // alone, but before the failure in the plan
  CHECK(results[1].status == Status::passed);
  CHECK(results[2].status == Status::passed);
  CHECK(results[3].status == Status::failed);
  CHECK(results[4].status == Status::skipped);
  CHECK(results[4].reason == "not run: stopped");
}

TEST_CASE("with several workers each pass runs whole, its alone jobs included, before the next begins", "[supervisor][pool]") {
  Fixture f;
  f.options.workers = 2;
  auto plan = f.plan({"stub_fresh/copy=1", id("pass"), id("pass", 2)});
  std::vector<Job> jobs;
  for (int pass = 1; pass <= 2; ++pass)
    for (const auto& s : plan) jobs.push_back({&s, 0, pass});
  std::vector<std::size_t> started;
  f.options.on_start = [&](std::size_t job) { started.push_back(job); };
  auto results = execute_plan(jobs, f.env, f.options, nullptr).results;
  REQUIRE(started.size() == 6);
  std::set<std::size_t> first_three(started.begin(), started.begin() + 3);
  CHECK(first_three == std::set<std::size_t>{0, 1, 2});  // pass 1, its fresh-process job last
  CHECK(started[2] == 0);
  for (const auto& r : results) CHECK(r.status == Status::passed);
}
