// Starting a worker process, and how it ended. The descriptors it gets are the worker
// protocol's (protocol/worker_protocol.hpp); this file only makes and hands them over.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace hostcb {

struct WorkerProcess {
  pid_t pid = -1;       // also its process group's id
  int commands_fd = -1;  // write end, non-blocking: commands to the worker
  int events_fd = -1;    // read end, non-blocking: its events
  int output_fd = -1;    // read end, non-blocking: its stdout and stderr
};

// Starts `argv` as a worker with the protocol's descriptors, in a process group of its own,
// with its death signal set before it runs (it never outlives the thread that started it:
// start workers from a thread that lives until they are reaped). Returns at once: the
// handshake happens under the caller's clock. Throws std::runtime_error when it cannot
// start (a missing program, no descriptors left).
WorkerProcess spawn_worker(const std::vector<std::string>& argv, int progress_fd);

// Whether the worker has exited, without reaping it (its pipes may still hold what it wrote).
bool worker_has_exited(pid_t pid);
// Kills whatever is left in the worker's process group (what its layers started), then
// reaps the worker: its waitpid() status. Closes the worker's descriptors.
int reap_worker(WorkerProcess& worker);

// "killed by signal SIGSEGV (11)" or "exited with code 3", from a waitpid() status.
std::string describe_exit(int wait_status);

}  // namespace hostcb
