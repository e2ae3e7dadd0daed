#include "reports/reporter.hpp"

#include <exception>

#include "reports/atomic_file.hpp"

namespace hostcb {

void FileReporter::run_finished(const RunReport& report, ReportFiles& files) {
  try {
    write_file_atomically(path_, render_(report));
    files.written.push_back(path_);
  } catch (const std::exception& e) {
    files.failed.push_back(e.what());
  }
}

}  // namespace hostcb
