// Who holds a report: the marker a run writes at its start (reports/reporter.hpp,
// unfinished_run_marker) names its process and machine, so that a second run given the
// same report can see that the first is still writing it.
#pragma once
#include <string>

namespace hostcb {

std::string this_host();  // gethostname(), "?" when it cannot be read

// "hostcb (pid P on HOST)": how a marker names the run that wrote it.
std::string run_owner(int pid, const std::string& host);

// When `text` (a report's first bytes) is the marker of a run that has not finished, whose
// process still runs hostcb on this machine and is not this one: "hostcb (pid P on HOST)".
// Otherwise "" (no marker, a marker naming a cause, another machine's, a process gone).
std::string live_writer_of(const std::string& text);

}  // namespace hostcb
