#include "exec/worker_session.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "callback/active_scenario.hpp"
#include "exec/interrupt.hpp"
#include "model/errors.hpp"
#include "model/result_json.hpp"

namespace hostcb {

namespace {

constexpr double kStartupAllowance = 60;  // seconds for a worker to reach a scenario's start
constexpr double kExitAllowance = 10;     // seconds for a worker to exit after its last result
constexpr int kDrainMs = 2000;            // for a killed worker's last output to arrive

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string where_it_was(const ProgressCell& cell, std::int64_t index) {
  std::int64_t launch = cell.launch.load(), launches = cell.launches.load();
  if (cell.scenario.load() != index || launch < 0) return "before its first launch";
  return launches > 0 ? str("at launch ", launch, " of ", launches) : str("at launch ", launch);
}

// Launches are enqueued ahead of their callbacks: how far the callbacks got says more.
std::string calls_so_far(const ProgressCell& cell, std::int64_t index) {
  if (cell.scenario.load() != index) return "";
  std::int64_t calls = cell.calls.load();
  return str("; ", calls, " host-function call", calls == 1 ? " had" : "s had", " run");
}

double timeout_of(const Scenario& s, const ExecutionOptions& options) {
  return s.timeout_s > 0 ? s.timeout_s : options.timeout_s;
}

}  // namespace

std::string interrupted_reason() {
  return interrupt_signal() == SIGTERM ? "interrupted by SIGTERM" : "interrupted by SIGINT";
}

bool stopping(const ExecutionOptions& options) {
  return interrupt_signal() || (options.stop_requested && options.stop_requested());
}

Result stopped_result(const Scenario& scenario, const ExecutionOptions& options, double seconds) {
  return interrupt_signal() ? skipped_result(scenario, SkipCause::interrupted, interrupted_reason(), seconds)
                            : skipped_result(scenario, SkipCause::not_reached, options.stop_reason, seconds);
}

WorkerSession::WorkerSession(std::vector<const Scenario*> scenarios, const ExecutionOptions& options,
                             SharedProgress& progress)
    : scenarios_(std::move(scenarios)), options_(options), progress_(progress) {}

double WorkerSession::limit() const {
  // A started scenario has its time limit from its start. Before that the worker may be
  // starting up (creating a CUDA context), which is not the scenario's time; it gets a
  // startup allowance. Once every result is in, a worker gets 10 s to exit.
  if (pos_ >= scenarios_.size()) return kExitAllowance;
  double own = timeout_of(*scenarios_[pos_], options_);
  return started_ ? own : std::max(kStartupAllowance, own);
}

void WorkerSession::kill_worker(std::string why) {
  kill(-worker_.pid, SIGKILL);
  killed_ = true;
  cause_ = std::move(why);
}

std::size_t WorkerSession::run(const Deliver& on_result) {
  deliver_ = on_result;
  std::vector<std::string> ids;
  for (const Scenario* s : scenarios_) ids.push_back(s->id);
  std::vector<std::string> argv = options_.worker_command;
  for (const std::string& a : {std::string("--device"), std::to_string(options_.device), std::string("--events-fd"),
                               std::to_string(kWorkerEventsFd), std::string("--progress-fd"),
                               std::to_string(kWorkerProgressFd)})
    argv.push_back(a);
  progress_.cell().reset(-1);
  try {
    worker_ = spawn_worker(argv, ids, progress_.fd());
  } catch (const std::exception& e) {
    for (; pos_ < scenarios_.size(); ++pos_) deliver_(pos_, result_for(*scenarios_[pos_], Status::error, e.what()));
    return pos_;
  }
  since_ = Clock::now();
  while ((events_open_ || output_open_) && !killed_) pump();
  if (killed_) drain_output();

  int status = 0;
  while (waitpid(worker_.pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::close(worker_.events_fd);
  ::close(worker_.output_fd);
  if (pos_ >= scenarios_.size()) return pos_;
  if (interrupted_) {
    // Stopped in flight: skipped, with the time it had run (nothing when it had not begun).
    if (started_) {
      deliver_(pos_, stopped_result(*scenarios_[pos_], options_, seconds_since(since_)));
      ++pos_;
    }
    return pos_;
  }
  deliver_(pos_, blame(status));
  return ++pos_;
}

void WorkerSession::pump() {
  double left_ms = (limit() - seconds_since(since_)) * 1000;
  if (left_ms <= 0) {
    const auto index = static_cast<std::int64_t>(pos_);
    if (pos_ >= scenarios_.size())
      kill(-worker_.pid, SIGKILL);  // every result is in: a worker stuck in teardown just goes
    else if (started_)
      kill_worker(str("timed out ", where_it_was(progress_.cell(), index), " after ", std::round(limit() * 10) / 10, " s",
                      calls_so_far(progress_.cell(), index)));
    else
      kill_worker(str("the worker did not start it within ", limit(), " s"));
    killed_ = true;
    return;
  }
  pollfd fds[3] = {{events_open_ ? worker_.events_fd : -1, POLLIN, 0},
                   {output_open_ ? worker_.output_fd : -1, POLLIN, 0},
                   {interrupt_fd(), POLLIN, 0}};
  int ready = poll(fds, 3, static_cast<int>(std::min(left_ms, 1e9)) + 1);
  if (ready < 0 && errno != EINTR) throw std::runtime_error(str("poll: ", std::strerror(errno)));
  if (stopping(options_)) {
    kill(-worker_.pid, SIGKILL);
    killed_ = interrupted_ = true;
    return;
  }
  if (ready < 0) return;  // EINTR: revents are not to be trusted; poll again
  char buffer[65536];
  // Output is attributed by the marks in it (OutputTail), so the order the two pipes are
  // read in does not matter.
  if (fds[1].revents) {
    ssize_t got = ::read(worker_.output_fd, buffer, sizeof buffer);
    if (got > 0)
      tail_.feed(buffer, static_cast<std::size_t>(got));
    else if (got == 0 || errno != EINTR)
      output_open_ = false;
  }
  ssize_t n = fds[0].revents ? ::read(worker_.events_fd, buffer, sizeof buffer) : -1;
  if (fds[0].revents && n <= 0 && (n == 0 || errno != EINTR)) events_open_ = false;
  if (n > 0) events_.append(buffer, static_cast<std::size_t>(n));
  for (std::size_t nl; !killed_ && (nl = events_.find('\n')) != std::string::npos; events_.erase(0, nl + 1)) {
    std::string line = events_.substr(0, nl);
    try {
      handle_event(line);
    } catch (const std::exception& e) {
      kill_worker(str("the worker sent an unreadable event (", e.what(), "): '", line.substr(0, 200), "'"));
    }
  }
}

void WorkerSession::handle_event(const std::string& line) {
  auto event = nlohmann::ordered_json::parse(line);
  const std::string kind = event.at("event").get<std::string>();
  if (event.contains("orphans"))  // the worker's orphan events count here: they fail the run
    for (const auto& [id, count] : event.at("orphans").items()) add_orphan_events(id, count.get<std::uint64_t>());
  if (kind == "done") return;
  std::size_t index = event.at("index").get<std::size_t>();
  if (index != pos_) throw std::invalid_argument(str("event for entry ", index, " while expecting ", pos_));
  if (kind == "start") {
    started_ = true;
    since_ = Clock::now();
  } else if (kind == "result") {
    Result result = result_from_json(event.at("result"));
    result.cause = kSkipCauses.parse(event.at("cause").get<std::string>());
    if (result.id != scenarios_[pos_]->id) throw std::invalid_argument("result for " + result.id);
    deliver_(pos_++, std::move(result));
    started_ = false;
    since_ = Clock::now();
  } else {
    throw std::invalid_argument("unknown event '" + kind + "'");
  }
}

void WorkerSession::drain_output() {
  if (interrupted_) return;  // nobody reads a crash report now: stop at once
  // The worker is gone (SIGKILL): its output ends once every process holding the pipe is.
  auto deadline = Clock::now() + std::chrono::milliseconds(kDrainMs);
  char buffer[65536];
  while (output_open_ && Clock::now() < deadline) {
    pollfd fd{worker_.output_fd, POLLIN, 0};
    int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
    if (poll(&fd, 1, std::max(left, 0)) <= 0) break;
    ssize_t got = ::read(worker_.output_fd, buffer, sizeof buffer);
    if (got > 0)
      tail_.feed(buffer, static_cast<std::size_t>(got));
    else if (got == 0 || errno != EINTR)
      output_open_ = false;
  }
}

Result WorkerSession::blame(int status) {
  // The scenario in hand did not get a result: it takes the blame, the rest go on.
  const auto index = static_cast<std::int64_t>(pos_);
  std::string reason = !cause_.empty() ? cause_
                       : started_     ? str("the worker ", describe_exit(status), " ", where_it_was(progress_.cell(), index),
                                            calls_so_far(progress_.cell(), index))
                                      : str("the worker ", describe_exit(status), " before starting it");
  std::string output = tail_.describe();
  if (!output.empty()) reason += "\n" + output;
  Result result = result_for(*scenarios_[pos_], Status::error, reason, seconds_since(since_));
  result.properties.push_back({"worker_exit", killed_ ? "killed by the supervisor" : describe_exit(status)});
  return result;
}

}  // namespace hostcb
