// Starting a worker process and reading how it ended.
//
// The worker is the hostcb binary itself in worker mode. It gets: the scenario ids on
// stdin (one per line, then EOF), the event pipe as fd 3, the shared progress page as
// fd 4; its stdout and stderr go to one pipe the supervisor keeps the tail of. It runs
// in its own process group and dies with the supervisor.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace hostcb {

inline constexpr int kWorkerEventsFd = 3;
inline constexpr int kWorkerProgressFd = 4;

struct WorkerProcess {
  pid_t pid = -1;
  int events_fd = -1;  // read end: one JSON event per line
  int output_fd = -1;  // read end: the worker's stdout and stderr
};

// Starts `argv` with `ids` on its stdin. Throws std::runtime_error.
WorkerProcess spawn_worker(const std::vector<std::string>& argv, const std::vector<std::string>& ids, int progress_fd);

// "killed by signal SIGSEGV (11)" or "exited with code 3", from a waitpid() status.
std::string describe_exit(int wait_status);

}  // namespace hostcb
