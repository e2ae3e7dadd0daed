// A scenario's turn on its GPU, shared by every hostcb process on this machine. An
// ordinary scenario runs beside others (a shared turn); one that must have the device to
// itself (runs_alone: a family that faults the device on purpose) waits until no
// scenario of any hostcb process is running on that GPU, and keeps them all out until it
// ends (an exclusive turn). The supervisor keeps such a scenario alone within one run;
// this keeps it alone across runs: ctest -j, layers.sh -j, pytest-xdist, two users. On the
// H200 a fault in one process now and then cost a host function queued in another process
// its call (docs/cuda-facts.md), so a neighbour's fault must never decide a verdict.
//
// Two flock(2) files per GPU, named after its UUID, in $HOSTCB_LOCK_DIR (default /tmp): the
// turn itself, and a turnstile that an exclusive taker holds while it waits, so that a
// stream of shared turns cannot starve it. A process that dies lets go of both (the locks
// go with its file descriptors).
//
// Families that need no GPU (the tests' stub and CPU stand-in) take turns too, on a
// stand-in device, but only where $HOSTCB_LOCK_DIR is set: tests that check the turns set
// it, and the rest of a test suite's CPU runs never wait for each other.
#pragma once
#include <string>

#include "model/environment.hpp"
#include "model/family.hpp"

namespace hostcb {

class DeviceTurn {
 public:
  enum class Kind { shared, exclusive };
  // Waits for the turn. Takes none when there is nothing to share (see above). A lock file
  // that cannot be opened throws std::runtime_error naming the folder and HOSTCB_LOCK_DIR:
  // without turns a neighbour's fault could decide a verdict, so that is no silent default.
  DeviceTurn(const Scenario& scenario, const Environment& env);
  ~DeviceTurn();
  DeviceTurn(const DeviceTurn&) = delete;
  DeviceTurn& operator=(const DeviceTurn&) = delete;

  // The lock files' stem for `scenario` in `env`, or "" when it takes no turn.
  static std::string stem(const Scenario& scenario, const Environment& env);
  // Why no turn could be taken in the lock folder ($HOSTCB_LOCK_DIR, else /tmp): not a
  // folder, or not one this user may make files in; "" when it will do. Asked before a
  // run starts, so a bad value is one line and exit 2, not a run without turns.
  static std::string folder_problem();

 private:
  int turnstile_ = -1, turn_ = -1;
};

}  // namespace hostcb
