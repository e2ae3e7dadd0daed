// Contract checks that more than one family runs: written once, in the family that owns
// them, and reused by `contracts`, which gathers every documented restriction.
#pragma once
#include <string>

#include "runner/scenario_run.hpp"

namespace hostcb::cases {

// capture_contract.cu: a stream callback enqueued during capture (900, invalidated, 901).
void check_stream_callback_in_capture(ScenarioRun& run, CaptureMode mode);

// callback_fault.cu: one host function in a captured graph launched 3 times, with `fault`
// injected; "calls_cuda" is the contract that a host function must not call CUDA.
void run_callback_fault(ScenarioRun& run, const std::string& fault);

}  // namespace hostcb::cases
