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

// Waits until count() is at most `target`, or has stood still for `quiet` seconds (what is
// left will not go on its own), or `cap` seconds have passed. Returns the last count.
template <class Count>
auto wait_until_settled(Count count, decltype(count()) target, double quiet, double cap) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto last = count();
  auto last_change = start;
  while (last > target) {
    const auto now = clock::now();
    if (now - last_change >= std::chrono::duration<double>(quiet) || now - start >= std::chrono::duration<double>(cap))
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const auto now_count = count();
    if (now_count != last) {
      last = now_count;
      last_change = clock::now();
    }
  }
  return last;
}

}  // namespace hostcb
