// Polling with a deadline, for things CUDA finishes on its own threads (a stream
// callback after a fault, a user object's destructor).
#pragma once
#include <chrono>
#include <thread>

namespace hostcb {

template <class Condition>
bool wait_until(Condition done, double seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return done();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace hostcb
