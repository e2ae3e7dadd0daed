// The report files one command will write, checked together before anything runs, and
// written together after: every report is attempted even when an earlier one fails.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace hostcb {

struct ReportTarget {
  std::string path;
  std::string what;  // "JUnit report", "JSON report", "Markdown report", ...
};

// Throws UsageError, one line naming the report and its path, unless every target can be
// written as a new or replaced regular file. Refused: an empty path, a path ending in
// '/', a directory, an existing FIFO, device node, socket or other non-regular file, a
// symbolic link (the atomic rename would replace the link, not write through it), a
// read-only file, an existing file that holds something other than a report of its kind
// (a JUnit or JSON report, hostcb's Markdown or HTML matrix: a layer's source given as
// --json would be lost), a missing or non-folder parent, a folder that takes no new file, and
// two targets naming the same file (compared by canonical folder and name), and a
// target naming one of the command's `inputs` (a results file, the expectations file,
// an adapter: "what" says which), through any link or ./ to it: the report would replace
// what the command reads. Inputs that do not exist are left to their own readers.
void check_report_targets(const std::vector<ReportTarget>& targets, const std::vector<ReportTarget>& inputs = {});

struct ReportOutput {
  ReportTarget target;
  std::function<std::string()> content;  // called once; may throw
};

struct ReportsWritten {
  std::vector<std::string> written;  // paths, in the order given
  std::vector<std::string> failed;   // "cannot write JUnit report 'PATH': why", one line each
  bool ok() const { return failed.empty(); }
};

// Writes each output atomically (write_file_atomically), going on after a failure.
ReportsWritten write_reports(const std::vector<ReportOutput>& outputs);

}  // namespace hostcb
