// Running another program to its end, as hostcb bisect runs pip and `hostcb run` once per
// layer version: its output in a file, a few variables of its environment changed.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace hostcb {

struct ChildEnd {
  int exit_code = -1;   // its exit code, or 128 + the signal that killed it
  std::string how;      // "exit 0", "killed by signal SIGSEGV (11)", "could not start: ..."
};

// Runs `argv` (argv[0] looked up on PATH when it has no '/'), stdin /dev/null, stdout and
// stderr into `log` (truncated), with `environment` set over this process's own, and waits.
// SIGINT and the like reach it as they reach hostcb (the same process group).
ChildEnd run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& environment,
                   const std::string& log);

// The last line of `path` that is not empty (at most 300 bytes of it), or "".
std::string last_line_of(const std::string& path);

}  // namespace hostcb
