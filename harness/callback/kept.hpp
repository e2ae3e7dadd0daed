// What CUDA's threads may still reach after the code that made it has finished with it: a
// callback of a broken layer that comes late, a stream callback queued behind a fault.
// Such objects are kept, reachable, until the process ends, rather than freed under a
// thread that may still read them. Only for a process that ends soon after (a worker that
// retires once its context is broken): nothing here is ever freed.
#pragma once
#include <deque>
#include <mutex>
#include <utility>

namespace hostcb {

// A T made from `args`, at an address that stays valid for the life of the process.
template <class T, class... Args>
T& keep_for_process(Args&&... args) {
  static auto* kept = new std::deque<T>();  // never destroyed: no exit-time race either
  static std::mutex guard;
  std::lock_guard<std::mutex> lock(guard);
  return kept->emplace_back(std::forward<Args>(args)...);
}

}  // namespace hostcb
