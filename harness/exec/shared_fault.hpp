// Scenarios that share one device fault (model/shared_fault.hpp), under the supervisor.
//
// One fresh worker runs them as one program: each arms, all strike, each checks. The
// fault stands only when every one of them passed (or was skipped), the worker gave each
// a result, and no callback went astray (no orphan). Otherwise each of them runs again in
// a worker of its own, and that run's result is its verdict: what a broken layer did to
// its neighbours in the shared context cannot decide theirs, and whichever scenario it
// crashed in does not take the blame for the one that crashed it.
#pragma once
#include <cstddef>
#include <vector>

#include "exec/collector.hpp"
#include "exec/supervisor.hpp"

namespace hostcb {

// The jobs of `to_run` that must have the device to itself (runs_alone), as the programs
// they run in, in plan order of each program's first job: those with one sharing key on
// one device in one pass together, the rest one to a program. Under --isolate scenario none
// share.
std::vector<std::vector<std::size_t>> alone_programs(const std::vector<Job>& jobs, const std::vector<std::size_t>& to_run,
                                                     const ExecutionOptions& options);

// Runs one program of alone_programs(): a shared fault when it holds more than one job.
void run_alone_program(const std::vector<Job>& jobs, const std::vector<std::size_t>& program,
                       const ExecutionOptions& options, Collector& out);

}  // namespace hostcb
