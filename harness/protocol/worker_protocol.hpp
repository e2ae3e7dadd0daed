// How a supervisor and its workers talk: the one place that knows the wire format. The
// supervisor side (exec/) and the worker side (runner/worker.cpp) both use this, nothing
// else does.
//
// A worker is this binary run as `PROGRAM worker [--adapter SPEC]... --device N`, with
//   fd 0     /dev/null
//   fd 1, 2  one pipe: what it prints, which the supervisor keeps the tail of; a mark line
//            (output_mark) at each scenario's start and end says whose output follows
//   fd 3     events, worker to supervisor
//   fd 4     the shared progress page (callback/progress.hpp): launch k of N, calls so far
//   fd 5     commands, supervisor to worker; end of file means "no more: finish and exit"
// It runs in its own process group, and its death signal is set before it starts
// (exec/worker_process.cpp), so it never outlives the supervisor.
//
// One JSON object a line, both ways:
//   command  {"run":"ID","index":I}    run scenario ID (the worker resolves it, axis
//                                      overrides included); I names it in the events
//            {"run":"ID","index":I,"with":["ID2",...]}  run ID, ID2, ... as one program
//                                      sharing one device fault (model/shared_fault.hpp);
//                                      they are I, I+1, ... in the events, which come
//                                      for each in turn as for single commands
//   event    {"event":"ready"}         set up: adapters loaded, environment captured
//            {"event":"start","index":I}
//            {"event":"result","index":I,"cause":"...","result":{...},"orphans":{...}}
//            {"event":"result",...,"retire":"WHY"}  and the worker exits after it: its
//                                      context can run nothing more (runner/runner.hpp);
//                                      the commands it was sent after I are not its
//            {"event":"done","orphans":{...}}   every command done (or retiring); it exits
// A supervisor may send every command at once or one at a time: a worker reads the next
// only when it is free, so a worker started before its work is known (a standby) waits.
// Before it kills a worker for a timeout, the supervisor sends kStackReportSignal to each
// of its threads; each writes where it is as one line of its output (runner/stack_report.hpp).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/orphans.hpp"
#include "model/result.hpp"

namespace hostcb::protocol {

inline constexpr int kEventsFd = 3;
inline constexpr int kProgressFd = 4;
inline constexpr int kCommandsFd = 5;
inline constexpr int kStackReportSignal = 36;  // SIGRTMIN + 2 under glibc: real-time, queued per thread

// What starts a worker, less its device: {program, "worker", "--adapter", spec, ...}.
std::vector<std::string> worker_command(const std::string& program, const std::vector<std::string>& adapters);
// The whole argument vector for one worker on `device`.
std::vector<std::string> worker_argv(const std::vector<std::string>& command, int device);

struct RunCommand {
  std::size_t index = 0;
  std::string id;
  std::vector<std::string> with;  // scenarios sharing id's device fault: index+1, index+2, ...
};

enum class EventKind { ready, start, result, done };

struct Event {
  EventKind kind = EventKind::done;
  std::size_t index = 0;  // start, result
  Result result;          // result: its cause travels beside it (the results file has none)
  OrphanCounts orphans;   // result, done: counted since the previous event
  std::string retire;     // result: why the worker runs nothing after it; empty: it goes on
};

std::string encode(const RunCommand& command);  // one line, newline included
std::string encode(const Event& event);
// Throw std::invalid_argument (or nlohmann's exceptions) on anything malformed.
RunCommand decode_command(const std::string& line);
Event decode_event(const std::string& line);

// A line at each scenario's start ("start") and end ("end") in the worker's output.
std::string output_mark(const char* what, std::size_t index);
// Where the last mark in `text` ends, or npos: what follows is the next scenario's.
std::size_t after_last_mark(const std::string& text);
bool is_mark(const std::string& line);

// Splits bytes read from a pipe into lines, whatever pieces they come in.
class LineBuffer {
 public:
  void feed(const char* data, std::size_t size) { pending_.append(data, size); }
  std::optional<std::string> next();  // a whole line, without its newline

 private:
  std::string pending_;
};

// Writes all of `text` to a blocking `fd`, through EINTR; false when the reader is gone.
bool write_all(int fd, const std::string& text);

// The worker's end: commands in, events out.
class WorkerChannel {
 public:
  // The next command; nullopt at end of file (or when the supervisor is gone).
  std::optional<RunCommand> next_command();
  // False when the supervisor is gone.
  bool send(const Event& event);

 private:
  LineBuffer commands_;
  bool commands_open_ = true;
};

}  // namespace hostcb::protocol
