#include "reports/reporter.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <exception>

#include "model/errors.hpp"
#include "reports/atomic_file.hpp"
#include "reports/last_words.hpp"
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
  const std::string started = str("hostcb (pid ", ::getpid(), ") started a run of ", planned, " scenario(s) and ");
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
  std::string on_signal[2];
  for (int k = 0; k < 2; ++k) {
    unfinished.results = {unfinished_run_marker(planned, k == 0 ? "a second SIGINT" : "a second SIGTERM")};
    on_signal[k] = render_(unfinished);
  }
  arm_last_words(path_, std::move(on_signal[0]), std::move(on_signal[1]));
}

void FileReporter::run_finished(const RunReport& report, ReportFiles& files) {
  disarm_last_words(path_);  // the run's own report from here on
  try {
    write_file_atomically(path_, render_(report));
    files.written.push_back(path_);
  } catch (const std::exception& e) {
    files.failed.push_back(e.what());
  }
}

}  // namespace hostcb
