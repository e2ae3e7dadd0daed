// The stub's families (stub_cases.hpp) run through the real supervisor, in real workers
// of hostcb_stub, for tests of the supervisor, the self-test and the CPU stand-in.
#pragma once
#include <string>
#include <vector>

#include "callback/active_scenario.hpp"
#include "exec/supervisor.hpp"
#include "model/registry.hpp"
#include "runner/runner.hpp"
#include "stub_cases.hpp"

namespace hostcb {

struct StubFixture {
  Registry registry;
  Environment env;
  ExecutionOptions options;
  StubFixture() {
    stub::register_stub_cases(registry);
    env.gpu_unusable_reason = "no GPU in this test";
    options.worker_command = {HOSTCB_STUB_EXE, "worker"};
    options.timeout_s = 10;
    options.run_in_process = [this](const Scenario& s, int) {  // as RunSession's does
      InProcessRun ran{Runner(env).run(s), tally.take()};
      for (const auto& [id, calls] : ran.orphans.by_scenario())
        if (id == ran.result.id) fail_for_orphans(ran.result, calls);
      return ran;
    };
  }
  OrphanTally tally;  // what --isolate none's runs leave in this process
  std::vector<Scenario> plan(const std::vector<std::string>& ids) {
    std::vector<Scenario> out;
    for (const auto& id : ids) out.push_back(registry.resolve(id));
    return out;
  }
  std::vector<Scenario> plan_matching(const std::string& filter, bool only_controls) {
    Selection selection;
    selection.filter = filter;
    selection.only_controls = only_controls;
    return registry.plan(selection);
  }
  ExecutedPlan execute(const std::vector<Scenario>& plan, const ResultCallback& on_result = nullptr) {
    std::vector<Job> jobs;
    for (const auto& s : plan) jobs.push_back({&s, 0});
    return execute_plan(jobs, env, options, on_result);
  }
  std::vector<Result> run(const std::vector<Scenario>& plan, const ResultCallback& on_result = nullptr) {
    return execute(plan, on_result).results;
  }
};

}  // namespace hostcb
