// One device fault behind many checks.
//
// A fault is the dearest thing a scenario can do on a GPU: it breaks its CUDA context for
// good (a fresh process each), and the GPU recovers from faults one at a time (H200:
// 0.3-0.9 s each, docs/cuda-facts.md), while the checks behind it take microseconds.
// So a family that faults on purpose writes its body in two halves around the fault:
// `arm` enqueues everything up to it and returns what `strike` sets it off with and what
// `check` then looks at. Scenarios of the family whose `fault_key` is the same, in one
// run and on one device, run as one program in one fresh worker (exec/shared_fault.hpp):
// every one arms, all strike, then each checks, with its own probe and its own result.
//
// A shared fault stands only when every scenario behind it passed (or was skipped) and
// nothing went astray; otherwise each of them runs again alone and that run's result is
// its verdict. So a verdict never depends on which scenarios shared its fault: a broken
// layer costs one fault more, a correct one saves all but one.
#pragma once
#include <functional>
#include <memory>
#include <string>

namespace hostcb {

class Params;
class ScenarioRun;

class ArmedFault {
 public:
  virtual ~ArmedFault() = default;
  // Sets this scenario's fault off. Every armed scenario of a program strikes before any
  // checks, so the fault it checks may be a neighbour's that came first: the same fault
  // kind breaks the shared context the same way.
  virtual void strike() = 0;
  // Everything the scenario checks after the fault, on the thread that armed it.
  virtual void check() = 0;
};

struct SharedFault {
  // Enqueues everything up to the fault; may throw like a body (SkipScenario included).
  std::function<std::unique_ptr<ArmedFault>(ScenarioRun&)> arm;
  // Which scenarios may share one fault: the same key, the same fault.
  std::function<std::string(const Params&)> key;
};

// A body that is one scenario's program alone: arm, strike, check. Where no neighbours
// are (--isolate scenario, a shared fault that did not stand) this is what runs.
std::function<void(ScenarioRun&)> body_alone(std::function<std::unique_ptr<ArmedFault>(ScenarioRun&)> arm);

}  // namespace hostcb
