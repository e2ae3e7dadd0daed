#include "runner/worker.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "callback/active_scenario.hpp"
#include "callback/progress.hpp"
#include "cuda/environment_capture.hpp"
#include "model/errors.hpp"
#include "protocol/worker_protocol.hpp"
#include "runner/device_turn.hpp"
#include "runner/runner.hpp"
#include "runner/stack_report.hpp"

namespace hostcb {

namespace {

// A line in the output pipe that says where a scenario's output begins or ends; what was
// buffered before it is flushed first, so it lands on the right side of the mark.
void mark_output(const char* what, std::size_t index) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  protocol::write_all(STDERR_FILENO, protocol::output_mark(what, index));  // unread, the marks do not matter
}

Result unresolvable(const std::string& id, const std::string& why) {
  Result r;
  r.id = id;
  r.family = id.substr(0, id.find('/'));
  r.status = Status::error;
  r.reason = why;
  return r;
}

// Orphan calls blamed on the scenario whose result this is fail it now, so its own line says
// so and its worker retires (the run adds any that come later: model/result.hpp).
void fold_orphans(protocol::Event& finished) {
  for (const auto& [id, calls] : finished.orphans.by_scenario())
    if (id == finished.result.id) fail_for_orphans(finished.result, calls);
}

protocol::Event event_of(protocol::EventKind kind, std::size_t index) {
  protocol::Event made;
  made.kind = kind;
  made.index = index;
  return made;
}

// One program for scenarios that share a device fault (protocol: "with"): one turn on the
// GPU for all of them, then for each in turn its start, its check and its result. The
// worker retires after the last: its context is broken.
template <class Send>
void run_sharing_fault(const Registry& registry, const Environment& env, Runner& runner,
                       const protocol::RunCommand& command, OrphanTally& orphans, Send&& send) {
  std::vector<std::string> ids = {command.id};
  ids.insert(ids.end(), command.with.begin(), command.with.end());
  std::vector<Scenario> members;
  std::string unresolved;
  for (const std::string& id : ids) try {
      members.push_back(registry.resolve(id));
    } catch (const UsageError& e) {
      unresolved = id + ": " + e.what();
    }
  const std::string retire = "a fault shared by " + std::to_string(ids.size()) + " scenarios broke its context";
  auto on_start = [&](std::size_t k) {
    progress_cell().reset(static_cast<std::int64_t>(command.index + k));
    mark_output("start", command.index + k);
    send(event_of(protocol::EventKind::start, command.index + k));
  };
  auto on_result = [&](std::size_t k, Result result) {
    protocol::Event finished = event_of(protocol::EventKind::result, command.index + k);
    finished.result = std::move(result);
    finished.orphans = orphans.take();
    fold_orphans(finished);
    if (k + 1 == ids.size()) finished.retire = retire;
    send(finished);
    mark_output("end", command.index + k);
  };
  if (!unresolved.empty()) {  // the supervisor resolved each of them: a harness defect
    for (std::size_t k = 0; k < ids.size(); ++k) {
      on_start(k);
      on_result(k, unresolvable(ids[k], "its shared fault could not be set up: " + unresolved));
    }
    return;
  }
  std::optional<DeviceTurn> turn;
  try {
    turn.emplace(members.front(), env);
  } catch (const std::runtime_error& e) {
    for (std::size_t k = 0; k < ids.size(); ++k) {
      on_start(k);
      on_result(k, result_for(members[k], Status::error, e.what()));
    }
    return;
  }
  runner.run_sharing_fault(members, on_start, on_result);
}

}  // namespace

int worker_main(const Registry& registry, int device) {
  // The death signal was set before this process ran (exec/worker_process.cpp).
  signal(SIGINT, SIG_DFL);  // main installed the supervisor's handlers: a worker just dies
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  map_shared_progress(protocol::kProgressFd);
  set_failure_echo(true);  // a crash loses the channel, not what went to the supervisor
  install_stack_report_handler();  // a hang is reported with where each thread was
  install_crash_report_handler();  // and a crash with where the crashing thread was

  protocol::WorkerChannel channel;
  auto send = [&](const protocol::Event& event) {
    if (!channel.send(event)) _exit(3);  // the supervisor is gone: nobody to report to
  };
  auto event = [](protocol::EventKind kind, std::size_t index = 0) { return event_of(kind, index); };
  Environment env = capture_environment(device, "worker");
  Runner runner(env);
  OrphanTally orphans;
  send(event(protocol::EventKind::ready));
  while (std::optional<protocol::RunCommand> command = channel.next_command()) {
    if (!command->with.empty()) {
      run_sharing_fault(registry, env, runner, *command, orphans, send);
      break;  // a fault broke this process's context: the supervisor starts a fresh worker
    }
    protocol::Event finished = event(protocol::EventKind::result, command->index);
    std::optional<Scenario> scenario;
    try {
      scenario = registry.resolve(command->id);
    } catch (const UsageError& e) {
      finished.result = unresolvable(command->id, e.what());
    }
    // Its turn on the GPU before its start: the wait is the worker's, not the scenario's time.
    std::optional<DeviceTurn> turn;
    if (scenario) try {
        turn.emplace(*scenario, env);
      } catch (const std::runtime_error& e) {
        finished.result = result_for(*scenario, Status::error, e.what());
        scenario.reset();
      }
    progress_cell().reset(static_cast<std::int64_t>(command->index));
    mark_output("start", command->index);
    send(event(protocol::EventKind::start, command->index));
    if (scenario) finished.result = runner.run(*scenario);
    turn.reset();
    finished.orphans = orphans.take();
    fold_orphans(finished);
    finished.retire = runner.context_unusable();
    // A scenario that failed or erred may have broken the process itself, silently: a layer
    // that calls freed memory corrupts the heap, and the next scenario crashes for it (on
    // the H200, CuPy's cupy_runtime: a scenario failed [count], the next died in
    // _PyLong_New). The next scenario gets a fresh process, so its verdict is its own.
    const Status status = finished.result.status;
    if (finished.retire.empty() && (status == Status::failed || status == Status::error))
      finished.retire = str("it ended ", status_name(status), ", and what a failing layer did to this process must not reach another scenario");
    send(finished);
    mark_output("end", command->index);
    if (!finished.retire.empty()) break;  // the supervisor gives what is left to a fresh worker
  }
  protocol::Event done = event(protocol::EventKind::done);
  done.orphans = orphans.take();
  send(done);
  return 0;
}

}  // namespace hostcb
