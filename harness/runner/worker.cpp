#include "runner/worker.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>

#include "callback/active_scenario.hpp"
#include "cuda/environment_capture.hpp"
#include "model/errors.hpp"
#include "callback/progress.hpp"
#include "model/result_json.hpp"
#include "runner/runner.hpp"

namespace hostcb {

namespace {

void emit(int fd, const nlohmann::ordered_json& event) {
  std::string line = event.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  for (std::size_t done = 0; done < line.size();) {
    ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);  // the supervisor is gone: nobody to report to
    done += static_cast<std::size_t>(n);
  }
}

// Orphan events counted in this worker since its last report, by scenario. They go with
// every result and with the final event: the supervisor adds them to its own count.
nlohmann::ordered_json new_orphans(std::map<std::string, std::uint64_t>& reported) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [id, count] : orphan_events_by_scenario()) {
    std::uint64_t& sent = reported[id];
    if (count > sent) out[id] = count - sent;
    sent = count;
  }
  return out;
}

// A line in the output pipe that says where a scenario's output begins or ends; what was
// buffered before it is flushed first, so it lands on the right side of the mark.
void mark_output(const char* what, std::size_t index) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  std::string line = str(kWorkerOutputMark, " ", what, " ", index, "\n");
  for (std::size_t done = 0; done < line.size();) {
    ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // no one reads our output: the marks do not matter
    done += static_cast<std::size_t>(n);
  }
}

Result unresolvable(const std::string& id, const std::string& why) {
  Result r;
  r.id = id;
  r.family = id.substr(0, id.find('/'));
  r.status = Status::error;
  r.reason = why;
  return r;
}

}  // namespace

int worker_main(const Registry& registry, int device, int events_fd, int progress_fd) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the supervisor
  signal(SIGINT, SIG_DFL);           // main installed the supervisor's handlers: a worker just dies
  signal(SIGTERM, SIG_DFL);
  map_shared_progress(progress_fd);
  set_failure_echo(true);  // a crash loses the channel, not what went to the supervisor

  std::vector<std::string> ids;
  for (std::string line; std::getline(std::cin, line);)
    if (!line.empty()) ids.push_back(line);

  Environment env = capture_environment(device, "worker");
  Runner runner(env);
  std::map<std::string, std::uint64_t> orphans_reported;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    progress_cell().reset(static_cast<std::int64_t>(i));
    mark_output("start", i);
    emit(events_fd, {{"event", "start"}, {"index", i}});
    Result result;
    try {
      result = runner.run(registry.resolve(ids[i]));
    } catch (const UsageError& e) {
      result = unresolvable(ids[i], e.what());
    }
    emit(events_fd, {{"event", "result"},
                     {"index", i},
                     {"cause", kSkipCauses.name(result.cause)},
                     {"result", result_to_json(result)},
                     {"orphans", new_orphans(orphans_reported)}});
    mark_output("end", i);
  }
  emit(events_fd, {{"event", "done"}, {"orphans", new_orphans(orphans_reported)}});
  return 0;
}

}  // namespace hostcb
