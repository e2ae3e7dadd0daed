// How a run ends: its exit code and the one line that says why.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace hostcb {

struct Verdict {
  int exit_code = 0;
  std::string why;  // "nothing ran: no usable CUDA device: ...", "2 failed, 1 error", ...
};

struct RunOutcome {
  std::vector<Result> results;           // orphans already failed what they are blamed on
  std::vector<std::string> reports_lost; // reports that could not be written
  int interrupt_signal = 0;              // SIGINT or SIGTERM, 0 when none
  // run --require-gpu: a scenario skipped for want of a usable GPU (SkipCause::no_device)
  // fails the run, with that reason, instead of counting as a skip.
  bool require_gpu = false;
};

// An interrupt outranks everything (128 + signal); then anything bad (a failure, an error,
// an xpass, a lost report, no usable GPU where --require-gpu asked for one) is 1; a run in
// which every scenario was skipped is 77; else 0 (a run of xfails too: they ran, and failed
// as listed).
Verdict run_verdict(const RunOutcome& outcome);

}  // namespace hostcb
