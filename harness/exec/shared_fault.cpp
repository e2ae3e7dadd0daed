#include "exec/shared_fault.hpp"

#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "exec/worker_pool.hpp"
#include "exec/worker_session.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

bool stands(const Result& r) { return r.status == Status::passed || r.status == Status::skipped; }

// The first result that keeps a shared fault from standing, said in a few words.
std::string why_not(const std::vector<const Scenario*>& scenarios, const std::vector<std::optional<Result>>& got,
                    const OrphanCounts& orphans) {
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (!got[k]) return scenarios[k]->id + " got no result";
    if (!stands(*got[k])) return str(scenarios[k]->id, " ", status_name(got[k]->status));
  }
  return orphans.describe();
}

}  // namespace

std::vector<std::vector<std::size_t>> alone_programs(const std::vector<Job>& jobs, const std::vector<std::size_t>& to_run,
                                                     const ExecutionOptions& options) {
  std::vector<std::vector<std::size_t>> programs;
  // (sharing key, device, pass) -> its program: each pass of --repeat has its own fault.
  std::map<std::tuple<std::string, int, int>, std::size_t> by_key;
  for (std::size_t i : to_run) {
    const Scenario& s = *jobs[i].scenario;
    if (!runs_alone(s)) continue;
    const std::string key = options.isolation == Isolation::scenario ? "" : fault_sharing_key(s);
    if (key.empty()) {
      programs.push_back({i});
      continue;
    }
    auto [at, added] = by_key.try_emplace({key, jobs[i].device, jobs[i].pass}, programs.size());
    if (added) programs.emplace_back();
    programs[at->second].push_back(i);
  }
  return programs;
}

void run_alone_program(const std::vector<Job>& jobs, const std::vector<std::size_t>& program,
                       const ExecutionOptions& options, Collector& out) {
  if (program.size() < 2) return run_pool(jobs, program, 1, false, options, out);  // no standby beside it either
  std::vector<const Scenario*> scenarios;
  for (std::size_t i : program) scenarios.push_back(jobs[i].scenario);
  std::vector<std::optional<Result>> got(program.size());
  // Each job is started once for the reports, though it may run twice (shared, then alone).
  std::vector<bool> started(program.size(), false);
  auto start = [&](std::size_t k) {
    if (!started[k]) out.started(program[k]);
    started[k] = true;
  };
  SharedProgress progress;
  WorkerSession session(scenarios, jobs[program.front()].device, options, progress);
  session.share_one_fault();
  session.run([&](std::size_t k, Result r) { got[k] = std::move(r); }, start);

  bool all_stand = session.orphans().empty();
  for (const auto& r : got) all_stand = all_stand && r && stands(*r);
  if (all_stand) {
    for (std::size_t k = 0; k < program.size(); ++k) {
      got[k]->properties.push_back({"shared_fault", str("one fault for ", program.size(), " scenarios")});
      out.set(program[k], std::move(*got[k]));
    }
    return;
  }
  if (stopping(options)) return;  // what has no result is skipped by the caller, as stopped
  const std::string why = "its shared fault did not stand (" + why_not(scenarios, got, session.orphans()) + "): ran alone";
  for (std::size_t k = 0; k < program.size() && !stopping(options); ++k) {
    WorkerSession alone({scenarios[k]}, jobs[program[k]].device, options, progress);
    alone.run(
        [&](std::size_t, Result r) {
          r.properties.push_back({"shared_fault", why});
          out.set(program[k], std::move(r));
        },
        [&](std::size_t) { start(k); });
    out.add_orphans(alone.orphans());
  }
}

}  // namespace hostcb
