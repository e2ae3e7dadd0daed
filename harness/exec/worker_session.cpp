#include "exec/worker_session.hpp"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "exec/interrupt.hpp"
#include "exec/thread_report.hpp"
#include "model/errors.hpp"
#include "model/stop_signals.hpp"

namespace hostcb {

namespace {

constexpr double kExitAllowance = 10;  // seconds for a worker to exit after its last result
constexpr int kDrainMs = 2000;         // for a killed worker's last output to arrive
constexpr int kExitCheckMs = 100;      // how often the loop asks whether the worker has exited
constexpr int kStackReportMs = 300;    // for a stuck worker's threads to say where they are

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

enum class Read { data, empty, closed };

// Reads what the non-blocking `fd` holds now into `sink`, one buffer's worth.
template <class Sink>
Read read_some(int fd, Sink&& sink) {
  char buffer[65536];
  ssize_t got = ::read(fd, buffer, sizeof buffer);
  if (got > 0) {
    sink(buffer, static_cast<std::size_t>(got));
    return Read::data;
  }
  return got < 0 && (errno == EINTR || errno == EAGAIN) ? Read::empty : Read::closed;
}

}  // namespace

std::string interrupted_reason() {
  return std::string("interrupted by ") + stop_signal_name(interrupt_signal());
}

bool stopping(const ExecutionOptions& options) {
  return interrupt_signal() || (options.stop_requested && options.stop_requested());
}

Result stopped_result(const Scenario& scenario, const ExecutionOptions& options, double seconds) {
  return interrupt_signal() ? skipped_result(scenario, SkipCause::interrupted, interrupted_reason(), seconds)
                            : skipped_result(scenario, SkipCause::not_reached, options.stop_reason, seconds);
}

WorkerSession::WorkerSession(std::vector<const Scenario*> scenarios, int device, const ExecutionOptions& options,
                             SharedProgress& progress, Feed feed)
    : scenarios_(std::move(scenarios)), device_(device), options_(options), progress_(progress), feed_(std::move(feed)) {}

double WorkerSession::limit() const {
  // A started scenario has its time limit from its start. Before that the worker may be
  // starting up (loading adapters, creating a CUDA context), which is not the scenario's
  // time; it gets a startup allowance. Once every result is in (or it retires), a worker
  // gets 10 s to exit.
  if (pos_ >= scenarios_.size() || retired_) return kExitAllowance;
  double own = timeout_of(*scenarios_[pos_], options_);
  return started_ ? own : std::max(options_.startup_allowance_s, own);
}

void WorkerSession::kill_worker(std::string why) {
  kill(-worker_.pid, SIGKILL);
  killed_ = true;
  cause_ = std::move(why);
}

std::size_t WorkerSession::run(const Deliver& on_result, const Started& on_start) {
  deliver_ = on_result;
  started_event_ = on_start;
  if (share_one_fault_ && !scenarios_.empty()) {
    protocol::RunCommand together{0, scenarios_.front()->id, {}};
    for (std::size_t k = 1; k < scenarios_.size(); ++k) together.with.push_back(scenarios_[k]->id);
    commands_ += protocol::encode(together);
  } else {
    for (std::size_t k = 0; k < scenarios_.size(); ++k) commands_ += protocol::encode(protocol::RunCommand{k, scenarios_[k]->id, {}});
  }
  progress_.cell().reset(-1);
  since_ = Clock::now();  // the worker's start-up is under the clock, from here
  try {
    if (worker_.pid < 0) worker_ = spawn_worker(protocol::worker_argv(options_.worker_command, device_), progress_.fd());
  } catch (const std::exception& e) {
    for (; pos_ < scenarios_.size(); ++pos_) deliver_(pos_, result_for(*scenarios_[pos_], Status::error, e.what()));
    return pos_;
  }
  while (!exited_ && !killed_) pump();
  if (killed_)
    drain_after_kill();
  else
    drain_after_exit();
  const int status = reap_worker(worker_);
  if (pos_ >= scenarios_.size() || retired_) return pos_;  // a retired worker's rest go to a fresh one
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

void WorkerSession::top_up() {
  while (feed_ && scenarios_.size() - pos_ < kAhead) {
    const Scenario* next = feed_();
    // The feed may have taken a while (a program run alone in the meantime, -j 1): a worker
    // with nothing in hand has its allowance from now, for its next scenario or, when the
    // queue is empty, for its exit.
    if (pos_ == scenarios_.size()) since_ = Clock::now();
    if (!next) {
      feed_ = nullptr;  // the queue is empty for good: its jobs are all known up front
      break;
    }
    commands_ += protocol::encode(protocol::RunCommand{scenarios_.size(), next->id, {}});
    scenarios_.push_back(next);
  }
  if (commands_.empty() && !feed_ && worker_.commands_fd >= 0) {
    ::close(worker_.commands_fd);  // end of file: the worker finishes what it has and exits
    worker_.commands_fd = -1;
  }
}

void WorkerSession::pump() {
  if (!killed_) top_up();
  double left_ms = (limit() - seconds_since(since_)) * 1000;
  if (left_ms <= 0 && stopping(options_)) return stop_for_interrupt();  // skipped, not blamed for a timeout
  if (left_ms <= 0) {
    const auto index = static_cast<std::int64_t>(pos_);
    if (pos_ >= scenarios_.size() || retired_)
      kill(-worker_.pid, SIGKILL);  // every result is in: a worker stuck in teardown just goes
    else if (started_)
      kill_worker(str("timed out ", where_it_was(progress_.cell(), index), " after ", std::round(limit() * 10) / 10, " s",
                      calls_so_far(progress_.cell(), index), where_its_threads_are()));
    else
      kill_worker(str("the worker did not start it within ", limit(), " s", where_its_threads_are()));
    killed_ = true;
    return;
  }
  pollfd fds[4] = {{events_open_ ? worker_.events_fd : -1, POLLIN, 0},
                   {output_open_ ? worker_.output_fd : -1, POLLIN, 0},
                   {interrupt_fd(), POLLIN, 0},
                   {commands_.empty() ? -1 : worker_.commands_fd, POLLOUT, 0}};
  int ready = poll(fds, 4, static_cast<int>(std::min<double>(left_ms, kExitCheckMs)) + 1);
  if (ready < 0 && errno != EINTR) throw std::runtime_error(str("poll: ", std::strerror(errno)));
  if (stopping(options_)) return stop_for_interrupt();
  if (ready > 0) {
    if (fds[3].revents) send_commands();
    // Output is attributed by the marks in it (OutputTail), so the order the two pipes are
    // read in does not matter.
    if (fds[1].revents) read_output();
    if (fds[0].revents) read_events();
  }
  exited_ = worker_has_exited(worker_.pid);
}

void WorkerSession::stop_for_interrupt() {
  kill(-worker_.pid, SIGKILL);
  killed_ = interrupted_ = true;
}

void WorkerSession::send_commands() {
  ssize_t n = ::write(worker_.commands_fd, commands_.data(), commands_.size());
  if (n > 0) commands_.erase(0, static_cast<std::size_t>(n));
  if (n < 0 && errno != EINTR && errno != EAGAIN) {
    commands_.clear();  // the worker is gone: its exit says why
    feed_ = nullptr;
  }
}

bool WorkerSession::read_output() {
  Read got = read_some(worker_.output_fd, [&](const char* data, std::size_t size) { tail_.feed(data, size); });
  output_open_ = got != Read::closed;
  return got == Read::data;
}

bool WorkerSession::read_events() {
  Read got = read_some(worker_.events_fd, [&](const char* data, std::size_t size) { events_.feed(data, size); });
  events_open_ = got != Read::closed;
  while (!killed_) {
    std::optional<std::string> line = events_.next();
    if (!line) break;
    try {
      handle_event(protocol::decode_event(*line));
    } catch (const std::exception& e) {
      kill_worker(str("the worker sent an unreadable event (", e.what(), "): '", line->substr(0, 200), "'"));
    }
  }
  return got == Read::data;
}

void WorkerSession::handle_event(const protocol::Event& event) {
  orphans_.add(event.orphans);  // the worker's orphan events count here: they fail the run
  if (event.kind == protocol::EventKind::ready || event.kind == protocol::EventKind::done) return;
  if (event.index != pos_) throw std::invalid_argument(str("event for entry ", event.index, " while expecting ", pos_));
  if (event.kind == protocol::EventKind::start) {
    started_ = true;
    since_ = Clock::now();
    if (started_event_) started_event_(pos_);
    return;
  }
  if (event.result.id != scenarios_[pos_]->id) throw std::invalid_argument("result for " + event.result.id);
  Result result = event.result;
  if (!event.retire.empty()) {
    // Its context can run nothing more: no scenario goes to it after this one.
    result.properties.push_back({"worker_retired", "the worker ran nothing after this scenario: " + event.retire});
    retire();
  }
  deliver_(pos_++, std::move(result));
  started_ = false;
  since_ = Clock::now();
}

void WorkerSession::retire() {
  retired_ = true;
  feed_ = nullptr;
  commands_.clear();
  if (worker_.commands_fd >= 0) {
    ::close(worker_.commands_fd);
    worker_.commands_fd = -1;
  }
}

void WorkerSession::drain_after_exit() {
  // Whatever the worker wrote before it exited is in its pipes now; what a process it left
  // behind writes later is not its. Read until each pipe is empty, a bounded amount.
  auto deadline = Clock::now() + std::chrono::milliseconds(kDrainMs);
  while (!killed_ && Clock::now() < deadline && read_events()) {
  }
  while (Clock::now() < deadline && read_output()) {
  }
}

std::string WorkerSession::where_its_threads_are() {
  std::string threads = ask_threads_where_they_are(worker_.pid);
  read_output_until(Clock::now() + std::chrono::milliseconds(kStackReportMs));  // their answers
  return threads.empty() ? threads : "\n" + threads.substr(0, threads.size() - 1);
}

void WorkerSession::drain_after_kill() {
  if (interrupted_) return;  // nobody reads a crash report now: stop at once
  // The worker is gone (SIGKILL): its output ends once every process holding the pipe is.
  read_output_until(Clock::now() + std::chrono::milliseconds(kDrainMs));
}

void WorkerSession::read_output_until(Clock::time_point deadline) {
  while (output_open_ && Clock::now() < deadline) {
    pollfd fd{worker_.output_fd, POLLIN, 0};
    int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
    if (poll(&fd, 1, std::max(left, 0)) <= 0) break;
    read_output();
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
