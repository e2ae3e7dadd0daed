#include "reports/reporter.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <exception>

#include "model/errors.hpp"
#include "reports/atomic_file.hpp"
#include "reports/last_words.hpp"
#include "reports/run_marker.hpp"
#include "reports/utc_time.hpp"

namespace hostcb {

namespace {

// Removes the report at `path` if it is a regular file (what write_file_atomically would
// replace): never a device, a FIFO or what a symbolic link names.
void remove_previous_report(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) ::unlink(path.c_str());
}

}  // namespace

Result unfinished_run_marker(std::size_t planned, const std::string& ended_by) {
  Result marker;
  marker.family = "hostcb";
  marker.params.add("run", "unfinished");
  marker.id = kUnfinishedRunId;
  marker.status = Status::error;
  const std::string started = str(run_owner(::getpid(), this_host()), " started a run of ", planned, " scenario(s) and ");
  marker.reason = ended_by.empty()
                      ? started + "has not written its results: it is still running, or it ended before it could"
                      : started + "was ended by " + ended_by + " before it wrote its results (the first signal stops a "
                                  "run and writes them; a second ends hostcb at once)";
  marker.reason += "; this file holds none of any run's results";
  return marker;
}

void FileReporter::run_started(const Environment& environment, std::size_t planned) {
  // Replaced atomically by the real report when the run finishes; until then a reader
  // (CI, `hostcb result`, `hostcb report`) finds an error saying so, never the previous
  // run's results as if they were this one's. A failure here shows in the final write.
  RunReport unfinished;
  unfinished.environment = environment;
  unfinished.started_utc = utc_now();
  unfinished.results.push_back(unfinished_run_marker(planned));
  try {
    write_file_atomically(path_, render_(unfinished));
  } catch (const std::exception&) {
    // Not even the marker fits (a full disk): then no file at all, rather than the previous
    // run's report left where CI reads this one's. A failure here shows in the final write.
    remove_previous_report(path_);
    return;
  }
  // What the file says if a second signal ends hostcb before the end: prepared now.
  std::array<std::string, kStopSignalCount> on_signal;
  for (int k = 0; k < kStopSignalCount; ++k) {
    unfinished.results = {unfinished_run_marker(planned, str("a second ", stop_signal_name(kStopSignals[k])))};
    on_signal[static_cast<std::size_t>(k)] = render_(unfinished);
  }
  arm_last_words(path_, std::move(on_signal));
}

void FileReporter::run_finished(const RunReport& report, ReportFiles& files) {
  // Armed until the report is in place: a second signal while it is rendered or written
  // (hundreds of megabytes for a long run) leaves the marker naming it, and no temporary.
  try {
    write_file_atomically(path_, render_(report), [&](const std::string& temporary) { last_words_writing(path_, temporary); });
    files.written.push_back(path_);
  } catch (const std::exception& e) {
    last_words_writing(path_, "");
    files.failed.push_back(e.what());
  }
  disarm_last_words(path_);
}

}  // namespace hostcb
