// One failure a scenario reported, from any thread: what was wrong, where, and when.
#pragma once
#include <cstdint>
#include <string>

namespace hostcb {

struct Failure {
  std::string scenario_id;
  std::int64_t launch = -1;  // 1-based graph launch (or call) number; -1 when none applies
  std::string thread;        // "runner", "callback#N" or "thread#N" (N numbers threads in order of first use)
  std::string file;          // project-relative source file
  int line = 0;
  std::string message;
};

// The check a failure's message names first: its leading "[tag]" ("[count]", "[userdata]",
// ...; docs/scenarios.md lists them), or "" when it starts with none.
inline std::string leading_check_tag(const std::string& message) {
  if (message.empty() || message[0] != '[') return "";
  const std::size_t end = message.find(']');
  return end == std::string::npos ? "" : message.substr(0, end + 1);
}

}  // namespace hostcb
