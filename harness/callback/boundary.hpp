// The guarded boundary between CUDA's C callback world and C++.
//
// CUDA calls `void fn(void*)` on its driver thread. Anything thrown there would cross a
// C frame (undefined behaviour, usually std::terminate), and anything printed is lost.
// guarded_invoke runs a callable, catches everything, and sends it to the failure
// channel with the launch number and file:line. GuardedCallback<F> turns any C++
// callable into the (fn, userData) pair CUDA wants.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "callback/active_scenario.hpp"

namespace hostcb {

using HostFn = void (*)(void*);
// What a stream callback forwards to, in cudaStreamCallback_t's order (and the adapter
// ABI's hostcb_stream_callback): the stream it was enqueued on, the status CUDA passed,
// and the userData it was given.
using StatusFn = void (*)(void* stream, int status, void* user_data);

struct SourceLocation {
  const char* file;
  int line;
};
#define HOSTCB_HERE (::hostcb::SourceLocation{__FILE__, __LINE__})

// An exception that knows where it was raised (CUDA check failures are these).
class LocatedError : public std::runtime_error {
 public:
  LocatedError(const std::string& message, SourceLocation where)
      : std::runtime_error(message), where_(where) {}
  SourceLocation where() const { return where_; }

 private:
  SourceLocation where_;
};

template <class F>
void guarded_invoke(std::int64_t launch, SourceLocation site, F&& body) noexcept {
  CallbackLaunchScope scope(launch);
  try {
    std::forward<F>(body)();
  } catch (const LocatedError& e) {
    report_failure(e.where().file, e.where().line, std::string("exception in host callback: ") + e.what());
  } catch (const std::exception& e) {
    report_failure(site.file, site.line, std::string("exception in host callback: ") + e.what());
  } catch (...) {
    report_failure(site.file, site.line, "exception in host callback: not a std::exception");
  }
}

// Owns a callable and exposes it as a C host function. The callable takes the 1-based
// number of this call (the launch it serves when the callback runs once per launch).
template <class F>
class GuardedCallback {
 public:
  GuardedCallback(F body, SourceLocation site) : body_(std::move(body)), site_(site) {}
  HostFn fn() const { return &entry; }
  void* user_data() { return this; }
  std::uint64_t calls() const { return calls_.load(std::memory_order_relaxed); }

  static void entry(void* user_data) noexcept {
    auto* self = static_cast<GuardedCallback*>(user_data);
    std::int64_t call = static_cast<std::int64_t>(self->calls_.fetch_add(1, std::memory_order_relaxed)) + 1;
    guarded_invoke(call, self->site_, [&] { self->body_(call); });
  }

 private:
  F body_;
  SourceLocation site_;
  std::atomic<std::uint64_t> calls_{0};
};

template <class F>
GuardedCallback<F> make_guarded(F body, SourceLocation site) {
  return GuardedCallback<F>(std::move(body), site);
}

}  // namespace hostcb
