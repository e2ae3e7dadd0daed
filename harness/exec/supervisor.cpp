#include "exec/supervisor.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <deque>
#include <optional>

#include "callback/active_scenario.hpp"
#include "model/errors.hpp"
#include "exec/interrupt.hpp"
#include "callback/progress.hpp"
#include "model/result_json.hpp"
#include "model/admission.hpp"
#include "exec/worker_process.hpp"

namespace hostcb {

Isolation parse_isolation(const std::string& name) {
  if (name == "none") return Isolation::none;
  if (name == "worker") return Isolation::worker;
  if (name == "scenario") return Isolation::scenario;
  throw UsageError("--isolate takes none, worker or scenario; got '" + name + "'");
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kStartupAllowance = 60;  // seconds for a worker to reach a scenario's start
constexpr double kExitAllowance = 10;     // seconds for a worker to exit after its last result

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// An interrupt, or the caller asking to stop (--fail-fast): no new scenario starts.
bool stopping(const ExecutionOptions& options) {
  return interrupt_signal() || (options.stop_requested && options.stop_requested());
}

std::string interrupted_reason() {
  return interrupt_signal() == SIGTERM ? "interrupted by SIGTERM" : "interrupted by SIGINT";
}

// Fills results in any order; hands them to the callback in plan order.
class Collector {
 public:
  Collector(std::size_t size, const ResultCallback& callback) : slots_(size), callback_(callback) {}
  bool has(std::size_t i) const { return slots_[i].has_value(); }
  void set(std::size_t i, Result result) {
    slots_[i] = std::move(result);
    for (; next_ < slots_.size() && slots_[next_]; ++next_)
      if (callback_) callback_(*slots_[next_], next_);
  }
  std::vector<Result> take() {
    std::vector<Result> out;
    for (auto& slot : slots_) out.push_back(std::move(*slot));
    return out;
  }

 private:
  std::vector<std::optional<Result>> slots_;
  const ResultCallback& callback_;
  std::size_t next_ = 0;
};

// The last lines a worker printed, and every sanitizer headline, for crash reports.
class OutputTail {
 public:
  void feed(const char* data, std::size_t size) {
    partial_.append(data, size);
    for (std::size_t nl; (nl = partial_.find('\n')) != std::string::npos; partial_.erase(0, nl + 1)) add(partial_.substr(0, nl));
    if (partial_.size() > 4096) partial_.erase(0, partial_.size() - 4096);
  }
  void clear() {
    first_.clear();
    lines_.clear();
    skipped_ = 0;
    headlines_.clear();
  }
  std::string describe() {
    if (!partial_.empty()) add(std::exchange(partial_, ""));
    std::string text;
    for (const auto& h : headlines_) text += "sanitizer: " + h + "\n";
    if (!first_.empty()) text += "what the worker wrote:\n";
    for (const auto& line : first_) text += "  " + line + "\n";
    if (skipped_) text += str("  ... (", skipped_, " lines)\n");
    for (const auto& line : lines_) text += "  " + line + "\n";
    return text;
  }

 private:
  // The first lines say what the scenario was doing; the last ones how it ended (a
  // sanitizer report can be long).
  static constexpr std::size_t kFirst = 10, kLast = 20;
  void add(std::string line) {
    line = line.substr(0, 300);
    bool headline = line.find("ERROR: AddressSanitizer") != std::string::npos ||
                    line.find("ERROR: LeakSanitizer") != std::string::npos ||
                    line.find("runtime error:") != std::string::npos;
    if (headline && headlines_.size() < 4) headlines_.push_back(line);
    if (first_.size() < kFirst) {
      first_.push_back(std::move(line));
      return;
    }
    lines_.push_back(std::move(line));
    if (lines_.size() > kLast) {
      lines_.pop_front();
      ++skipped_;
    }
  }
  std::vector<std::string> first_;
  std::deque<std::string> lines_;
  std::size_t skipped_ = 0;
  std::vector<std::string> headlines_;
  std::string partial_;
};

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

// Runs plan[batch[...]] in workers until each has a result, replacing a worker that dies.
// Returns early only when interrupted.
void run_batch(const std::vector<Scenario>& plan, const std::vector<std::size_t>& batch,
               const ExecutionOptions& options, Collector& out, SharedProgress& progress) {
  std::size_t pos = 0;  // the first entry of the batch without a result
  while (pos < batch.size()) {
    if (stopping(options)) return;
    std::vector<std::string> ids;
    for (std::size_t k = pos; k < batch.size(); ++k) ids.push_back(plan[batch[k]].id);
    std::vector<std::string> argv = options.worker_command;
    for (const char* a : {"--device", "", "--events-fd", "3", "--progress-fd", "4"}) argv.push_back(a);
    argv[argv.size() - 5] = std::to_string(options.device);
    progress.cell().reset(-1);

    WorkerProcess worker;
    try {
      worker = spawn_worker(argv, ids, progress.fd());
    } catch (const std::exception& e) {
      for (; pos < batch.size(); ++pos) out.set(batch[pos], result_for(plan[batch[pos]], Status::error, e.what()));
      return;
    }
    const std::size_t base = pos;
    bool started = false, events_open = true, output_open = true, killed = false;
    std::string cause, events;
    Clock::time_point since = Clock::now();
    OutputTail tail;
    auto kill_worker = [&](std::string why) {
      kill(-worker.pid, SIGKILL);
      killed = true;
      cause = std::move(why);
    };

    while ((events_open || output_open) && !killed) {
      // A started scenario has its time limit from its start. Before that the worker may
      // be starting up (creating a CUDA context), which is not the scenario's time; it
      // gets a startup allowance. Once every result is in, a worker gets 10 s to exit.
      double limit = pos >= batch.size() ? kExitAllowance
                     : started           ? timeout_of(plan[batch[pos]], options)
                                         : std::max(kStartupAllowance, timeout_of(plan[batch[pos]], options));
      double left_ms = (limit - seconds_since(since)) * 1000;
      if (left_ms <= 0) {
        if (pos >= batch.size())
          kill(-worker.pid, SIGKILL);  // every result is in: a worker stuck in teardown just goes
        else if (started)
          kill_worker(str("timed out ", where_it_was(progress.cell(), static_cast<std::int64_t>(pos - base)), " after ",
                          std::round(limit * 10) / 10, " s",
                          calls_so_far(progress.cell(), static_cast<std::int64_t>(pos - base))));
        else
          kill_worker(str("the worker did not start it within ", limit, " s"));
        break;
      }
      pollfd fds[3] = {{events_open ? worker.events_fd : -1, POLLIN, 0},
                       {output_open ? worker.output_fd : -1, POLLIN, 0},
                       {interrupt_fd(), POLLIN, 0}};
      int ready = poll(fds, 3, static_cast<int>(std::min(left_ms, 1e9)) + 1);
      if (ready < 0 && errno != EINTR) throw std::runtime_error(str("poll: ", std::strerror(errno)));
      if (stopping(options)) {
        kill(-worker.pid, SIGKILL);
        killed = true;
        break;
      }
      if (ready < 0) continue;  // EINTR: revents are not to be trusted; poll again
      // Events first: a worker writes "start" before anything the scenario prints, so
      // output readable now was written after the events readable now.
      char buffer[65536];
      ssize_t n = fds[0].revents ? ::read(worker.events_fd, buffer, sizeof buffer) : -1;
      if (fds[0].revents && n <= 0 && (n == 0 || errno != EINTR)) events_open = false;
      if (n > 0) events.append(buffer, static_cast<std::size_t>(n));
      for (std::size_t nl; !killed && (nl = events.find('\n')) != std::string::npos; events.erase(0, nl + 1)) {
        std::string line = events.substr(0, nl);
        try {
          auto event = nlohmann::ordered_json::parse(line);
          const std::string kind = event.at("event").get<std::string>();
          if (event.contains("orphans"))  // the worker's orphan events count here: they fail the run
            for (const auto& [id, count] : event.at("orphans").items()) add_orphan_events(id, count.get<std::uint64_t>());
          if (kind == "done") continue;
          std::size_t index = base + event.at("index").get<std::size_t>();
          if (index != pos) throw std::invalid_argument(str("event for entry ", index, " while expecting ", pos));
          if (kind == "start") {
            started = true;
            since = Clock::now();
            tail.clear();
          } else if (kind == "result") {
            Result result = result_from_json(event.at("result"));
            if (result.id != plan[batch[pos]].id) throw std::invalid_argument("result for " + result.id);
            out.set(batch[pos++], std::move(result));
            started = false;
            since = Clock::now();
          } else {
            throw std::invalid_argument("unknown event '" + kind + "'");
          }
        } catch (const std::exception& e) {
          kill_worker(str("the worker sent an unreadable event (", e.what(), "): '", line.substr(0, 200), "'"));
        }
      }
      if (fds[1].revents) {
        ssize_t got = ::read(worker.output_fd, buffer, sizeof buffer);
        if (got > 0) tail.feed(buffer, static_cast<std::size_t>(got));
        else if (got == 0 || errno != EINTR) output_open = false;
      }
    }

    int status = 0;
    while (waitpid(worker.pid, &status, 0) < 0 && errno == EINTR) {
    }
    ::close(worker.events_fd);
    ::close(worker.output_fd);
    if (stopping(options) || pos >= batch.size()) continue;
    // The scenario in hand did not get a result: it takes the blame, the rest go on.
    std::string reason = !cause.empty() ? cause
                         : started       ? str("the worker ", describe_exit(status), " ",
                                               where_it_was(progress.cell(), static_cast<std::int64_t>(pos - base)),
                                               calls_so_far(progress.cell(), static_cast<std::int64_t>(pos - base)))
                                         : str("the worker ", describe_exit(status), " before starting it");
    std::string output = tail.describe();
    if (!output.empty()) reason += "\n" + output;
    Result result = result_for(plan[batch[pos]], Status::error, reason, seconds_since(since));
    result.properties.push_back({"worker_exit", killed ? "killed by the supervisor" : describe_exit(status)});
    out.set(batch[pos++], std::move(result));
  }
}

}  // namespace

std::vector<Result> execute_plan(const std::vector<Scenario>& plan, const Environment& env,
                                 const ExecutionOptions& options, const ResultCallback& on_result) {
  signal(SIGPIPE, SIG_IGN);  // a worker that died leaves a broken pipe: an error, not our death
  Collector out(plan.size(), on_result);
  std::vector<std::size_t> to_run;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (auto reason = skip_reason(plan[i], env))
      out.set(i, result_for(plan[i], Status::skipped, std::move(*reason)));
    else if (options.isolation == Isolation::none && plan[i].family->fresh_process)
      out.set(i, result_for(plan[i], Status::skipped, "needs a fresh process: not run with --isolate none"));
    else
      to_run.push_back(i);
  }

  if (options.isolation == Isolation::none) {
    if (!options.run_in_process) throw std::logic_error("--isolate none without an in-process runner");
    for (std::size_t i : to_run) {
      if (stopping(options)) break;
      out.set(i, options.run_in_process(plan[i]));
    }
  } else {
    SharedProgress progress;
    std::vector<std::size_t> shared;  // consecutive scenarios that may share one worker
    auto flush = [&] {
      if (!shared.empty()) run_batch(plan, shared, options, out, progress);
      shared.clear();
    };
    for (std::size_t i : to_run) {
      if (options.isolation == Isolation::scenario || plan[i].family->fresh_process) {
        flush();
        run_batch(plan, {i}, options, out, progress);
      } else {
        shared.push_back(i);
      }
    }
    flush();
  }

  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (out.has(i)) continue;
    out.set(i, interrupt_signal()  ? result_for(plan[i], Status::skipped, interrupted_reason())
               : stopping(options) ? result_for(plan[i], Status::skipped, options.stop_reason)
                                   : result_for(plan[i], Status::error, "no result was produced: a harness defect"));
  }
  return out.take();
}

}  // namespace hostcb
