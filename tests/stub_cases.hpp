// CPU-only scenario families that misbehave on demand, for testing the supervisor without
// a GPU. hostcb_stub is the real CLI with these families instead of the CUDA ones, so
// its workers are real worker processes.
#pragma once
#include "model/registry.hpp"

namespace hostcb::stub {

// stub/behave=<how>/copy=<n>: pass, fail, crash (SIGSEGV at launch 2 of 5, after printing
// to stderr), abort, exit (code 3), hang (at launch 3 of 5), garbage (an unreadable event),
// slow (passes after 300 ms), fail_then_crash (a failed expectation, then SIGSEGV), meet
// (with HOSTCB_STUB_MEET, copies 1-4 wait for each other: pass only side by side). `copy` only makes more scenarios of the same behaviour.
// stub_control/case=<c>: known-bad controls; `escapes` passes although it must fail.
// stub_forward/forward=<layer>: three host functions through a loaded adapter.
// sim_<family>/...: the shipped families on a CPU stand-in of CUDA (sim_cases.hpp).
// stub_fresh/copy=<n>: a fresh process each, runs alone (fails beside another, HOSTCB_STUB_BUSY).
// stub_device/device=<d>/copy=<n>: passes only in a worker on device d.
// stub_seeded/seed=<n>: passes after 50 ms (run --budget moves its seeds).
void register_stub_cases(Registry& registry);

}  // namespace hostcb::stub
