#include "reports/reporter.hpp"

#include <unistd.h>

#include <exception>

#include "model/errors.hpp"
#include "reports/atomic_file.hpp"
#include "reports/utc_time.hpp"

namespace hostcb {

Result unfinished_run_marker(std::size_t planned) {
  Result marker;
  marker.family = "hostcb";
  marker.params.add("run", "unfinished");
  marker.id = marker.family + "/run=unfinished";
  marker.status = Status::error;
  marker.reason = str("hostcb (pid ", ::getpid(), ") started a run of ", planned,
                      " scenario(s) and has not written its results: it is still running, or it was killed "
                      "(SIGKILL, out of memory) before it could; this file holds none of any run's results");
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
  }
}

void FileReporter::run_finished(const RunReport& report, ReportFiles& files) {
  try {
    write_file_atomically(path_, render_(report));
    files.written.push_back(path_);
  } catch (const std::exception& e) {
    files.failed.push_back(e.what());
  }
}

}  // namespace hostcb
