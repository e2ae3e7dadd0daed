// Supervisor side of a hang report: before a worker that ran out of time is killed, each
// of its threads is asked where it is (runner/stack_report.hpp; the answers arrive in its
// output), and what the kernel says of each thread is read from /proc: its name, its
// state and the kernel function it waits in. A thread that blocks the signal (CUDA's own
// threads may) still shows up in the second.
#pragma once
#include <sys/types.h>

#include <string>

namespace hostcb {

// "threads when it was stopped:\n  TID NAME: STATE in WCHAN\n..." for every thread of
// `pid`, each sent kStackReportSignal; "" when /proc has nothing for it.
std::string ask_threads_where_they_are(pid_t pid);

}  // namespace hostcb
