// Exceptions that carry a decision, not a crash: bad user input and deliberate skips.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace hostcb {

// Bad input from the user (unknown axis, filter matching nothing, unwritable path).
// The CLI prints what() on one line and exits with code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// SIGINT or SIGTERM stopped a step before anything ran (an adapter's check, say). The CLI
// prints what() on one line and exits with 128 + the signal.
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown by a scenario body that cannot run here (toolkit too old, ...). Becomes "skipped".
class SkipScenario : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Concatenates anything streamable: str("saw ", n, " calls"). Works in .cu files, where
// fmt is kept out of nvcc's way.
template <class... Parts>
std::string str(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

}  // namespace hostcb
