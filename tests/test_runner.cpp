#include "catch_compat.hpp"
#include "idle_layer.hpp"
#include <atomic>
#include <chrono>
#include <thread>

#include "cuda/cuda_check.hpp"
#include "model/errors.hpp"
#include "cuda/driver_version.hpp"
#include "exec/supervisor.hpp"
#include "model/admission.hpp"
#include "runner/runner.hpp"
#include "runner/scenario_run.hpp"

using namespace hostcb;

namespace {
// A CPU-only family with the given body: the runner's judging needs no GPU.
Scenario cpu_scenario(Family& family, std::function<void(ScenarioRun&)> body) {
  family.name = "cpu";
  family.needs_gpu = false;
  family.body = std::move(body);
  return Scenario{"cpu/x=1", &family, {}, {}, std::nullopt, {}, 0};
}
Environment no_gpu() {
  Environment env;
  env.gpu_unusable_reason = "no usable CUDA device: test";
  return env;
}
// A scenario the way `run --isolate none` runs it: admitted by planning, then run here.
Result plan_and_run(const Scenario& scenario, const Environment& env) {
  ExecutionOptions options;
  options.isolation = Isolation::none;
  options.run_in_process = [&](const Scenario& s, int) { return InProcessRun{Runner(env).run(s), {}}; };
  return execute_plan({Job{&scenario, 0}}, env, options, nullptr).results.at(0);
}
}  // namespace

TEST_CASE("judge: error outranks failures which outrank a pass and no probe is never a pass", "[runner]") {
  CHECK(judge(false, true, 0) == Status::passed);
  CHECK(judge(false, true, 1) == Status::failed);
  CHECK(judge(true, true, 0) == Status::error);
  CHECK(judge(true, true, 3) == Status::error);
  CHECK(judge(false, false, 0) == Status::error);
  CHECK(judge(false, false, 2) == Status::failed);  // a check failed before the probe was made
  CHECK(judge(true, false, 2) == Status::error);
}

TEST_CASE("the runner's four results", "[runner]") {
  Environment env = no_gpu();
  Runner runner(env);
  Family family;

  SECTION("exact calls pass") {
    Result r = runner.run(cpu_scenario(family, [](ScenarioRun& run) {
      Probe& p = run.make_probe(1, 2);
      Probe::entry(p.user_data(0));
      Probe::entry(p.user_data(0));
    }));
    CHECK(r.status == Status::passed);
    CHECK(r.failures.empty());
  }
  SECTION("a wrong count fails, whatever else the body saw") {
    Result r = runner.run(cpu_scenario(family, [](ScenarioRun& run) {
      Probe& p = run.make_probe(1, 2);
      Probe::entry(p.user_data(0));
    }));
    REQUIRE(r.status == Status::failed);
    CHECK(contains(r.failures.at(0).message, "called 1 times; expected exactly 2"));
  }
  SECTION("a failed expectation on the launching thread fails, with the launch") {
    Result r = runner.run(cpu_scenario(family, [](ScenarioRun& run) {
      run.make_probe(1, 0);
      run.set_launch(4, 9);
      HOSTCB_EXPECT(false, "launch 4 saw the wrong count");
    }));
    REQUIRE(r.status == Status::failed);
    CHECK(r.failures.at(0).launch == 4);
  }
  SECTION("a CUDA error is an error naming the call, the error and file:line") {
    Result r = runner.run(cpu_scenario(family, [](ScenarioRun& run) {
      run.make_probe(1, 0);
      check_runtime(cudaErrorInvalidValue, "cudaStreamCreate(&s)", HOSTCB_HERE);
    }));
    CHECK(r.status == Status::error);
    CHECK(contains(r.reason, "cudaStreamCreate(&s) failed: cudaErrorInvalidValue (1) at tests/test_runner.cpp:"));
  }
  SECTION("a body that checks nothing is an error, never a pass") {
    Result r = runner.run(cpu_scenario(family, [](ScenarioRun&) {}));
    CHECK(r.status == Status::error);
    CHECK(contains(r.reason, "made no probe"));
  }
  SECTION("a failure raised before a skip is kept: the scenario fails, it is not skipped") {
    Result r = runner.run(cpu_scenario(family, [](ScenarioRun& run) {
      run.make_probe(1, 0);
      run.set_launch(2, 3);
      HOSTCB_EXPECT(false, "launch 2 went wrong before the body gave up");
      throw SkipScenario("needs CUDA 12.4");
    }));
    REQUIRE(r.status == Status::failed);
    REQUIRE(r.failures.size() == 1);
    CHECK(contains(r.failures[0].message, "launch 2 went wrong before the body gave up"));
  }
  SECTION("a body may skip, with its reason") {
    Result r = runner.run(cpu_scenario(family, [](ScenarioRun&) { throw SkipScenario("needs CUDA 12.4"); }));
    CHECK(r.status == Status::skipped);
    CHECK(r.reason == "needs CUDA 12.4");
    CHECK(r.cause == SkipCause::requirement);
  }
}

TEST_CASE("without a GPU, GPU scenarios are skipped with the reason and their body never runs", "[runner]") {
  Environment env = no_gpu();
  Family family;
  bool ran = false;
  Scenario s = cpu_scenario(family, [&](ScenarioRun&) { ran = true; });
  family.needs_gpu = true;
  Result r = plan_and_run(s, env);
  CHECK_FALSE(ran);
  CHECK(r.status == Status::skipped);
  CHECK(r.reason == "no usable CUDA device: test");
  CHECK(r.cause == SkipCause::no_device);
}

TEST_CASE("excluded combinations are skipped as excluded", "[runner]") {
  Environment env = no_gpu();
  Family family;
  bool ran = false;
  Scenario s = cpu_scenario(family, [&](ScenarioRun&) { ran = true; });
  s.excluded_reason = "no such thing";
  Result r = plan_and_run(s, env);
  CHECK_FALSE(ran);
  CHECK(r.status == Status::skipped);
  CHECK(r.reason == "excluded: no such thing");
  CHECK(r.cause == SkipCause::excluded);
}

TEST_CASE("a scenario below its version or device needs is skipped with the reason, whatever else holds", "[runner]") {
  Family family;
  family.name = "cpu";
  family.needs_gpu = true;
  Scenario scenario{"cpu/x=1", &family, {}, {}, std::nullopt, {}, 0};
  Environment env;
  env.runtime_version = 12060;
  env.toolkit_version = 12060;
  env.driver_version = 12020;
  env.gpu_usable = true;
  env.devices.push_back(DeviceInfo{});

  SECTION("runtime too old, judged even without a GPU") {
    scenario.requirements.min_runtime = 12080;
    env.gpu_usable = false;
    env.gpu_unusable_reason = "no usable CUDA device: test";
    auto r = why_skipped(scenario, env);
    REQUIRE(r);
    CHECK(r->reason == "needs CUDA runtime 12.8 or newer; this binary's is 12.6");
  }
  SECTION("a shared cudart newer than the toolkit does not lift the need: the code was not built") {
    scenario.requirements.min_runtime = 12060;
    env.toolkit_version = 12040;
    auto r = why_skipped(scenario, env);
    REQUIRE(r);
    CHECK(r->reason == "needs CUDA runtime 12.6 or newer; this binary's is 12.4 (the toolkit it was built with)");
  }
  SECTION("driver too old") {
    scenario.requirements.min_driver = 12040;
    auto r = why_skipped(scenario, env);
    REQUIRE(r);
    CHECK(r->reason == "needs a driver supporting CUDA 12.4 or newer; this one supports 12.2");
  }
  SECTION("too few devices") {
    scenario.requirements.min_devices = 2;
    auto r = why_skipped(scenario, env);
    REQUIRE(r);
    CHECK(r->reason == "needs 2 CUDA devices; 1 visible");
    CHECK(r->cause == SkipCause::requirement);
  }
  SECTION("needs met: it runs") {
    scenario.requirements = {12060, 12020, 1};
    CHECK_FALSE(why_skipped(scenario, env));
  }
  SECTION("without a GPU the GPU reason wins over driver needs") {
    scenario.requirements.min_driver = 12040;
    env.gpu_usable = false;
    env.gpu_unusable_reason = "no usable CUDA device: test";
    auto r = why_skipped(scenario, env);
    REQUIRE(r);
    CHECK(r->reason == "no usable CUDA device: test");
    CHECK(r->cause == SkipCause::no_device);
  }
}

TEST_CASE("the driver's version string is read from the kernel module's /proc text", "[environment]") {
  CHECK(parse_proc_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Sun Oct 12 2025\n"
                                  "GCC version:  gcc version 13.3.0\n") == "580.159.04");
  CHECK(parse_proc_driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build\n") ==
        "570.86.15");
  CHECK(parse_proc_driver_version("nothing useful\n").empty());
}

TEST_CASE("a /proc text whose module line has no version gives none, not a later line's number", "[environment]") {
  CHECK(parse_proc_driver_version("NVRM version: NVIDIA UNIX Kernel Module\nGCC version:  gcc version 13.3.0\n").empty());
}

TEST_CASE("the context is checked through CUDA's answer, whatever axes a family has", "[runner]") {
  // fuzz has no `api` axis (its programs name theirs): on the H200 asking api() after its
  // body threw, and every fuzz scenario's worker died with it.
  Family family;
  Scenario scenario = cpu_scenario(family, [](ScenarioRun&) {});
  ActiveScenario active(scenario.id);
  ScenarioRun run(scenario, active, 0);
  CHECK_THROWS(run.api());  // no api axis to name one
  CHECK(std::string(run.context_api().name()) == "runtime");
}

namespace {
// A layer whose records are freed 50 ms after the body that made them ends, on a thread of
// its own, as CUDA frees graph-owned records after their graph goes.
class LateFreeing final : public IdleLayer {
 public:
  const char* name() const override { return "late_freeing_test_layer"; }
  std::int64_t live_records() const override { return live.load(); }
  void make_and_free_later(std::int64_t records, bool ever) {
    live += records;
    if (!ever) return;
    freer = std::thread([this, records] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      live -= records;
    });
  }
  ~LateFreeing() override {
    if (freer.joinable()) freer.join();
  }
  std::atomic<std::int64_t> live{0};
  std::thread freer;
};
}  // namespace

TEST_CASE("a scenario's records freed late are freed before the next scenario starts", "[runner]") {
  auto owned = std::make_unique<LateFreeing>();
  LateFreeing& layer = *owned;
  register_forwarder(std::move(owned));
  Family family;
  Scenario scenario = cpu_scenario(family, [&](ScenarioRun& run) {
    run.make_probe(1, 0);
    static_cast<LateFreeing&>(run.forward()).make_and_free_later(32, true);
  });
  scenario.params.add("forward", "late_freeing_test_layer");
  Result result = Runner(no_gpu()).run(scenario);
  CHECK(result.status == Status::passed);
  CHECK(layer.live_records() == 0);  // the next scenario's count starts where this one's did

  // A leak is kept, and costs only the wait for the count to stand still.
  Scenario leaks = cpu_scenario(family, [&](ScenarioRun& run) {
    run.make_probe(1, 0);
    static_cast<LateFreeing&>(run.forward()).make_and_free_later(3, false);
  });
  leaks.params.add("forward", "late_freeing_test_layer");
  auto start = std::chrono::steady_clock::now();
  Runner(no_gpu()).run(leaks);
  CHECK(layer.live_records() == 3);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}
