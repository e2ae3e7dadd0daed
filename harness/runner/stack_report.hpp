// Worker side of hang and crash reports: on kStackReportSignal each thread that receives it writes
// one line to stderr, "hostcb stack: thread TID (NAME): innermost < caller < ...", the
// functions it is in. The supervisor sends it to every thread of a worker it is about to
// kill for taking too long, so the timeout says where the worker was stuck (a lock, the
// GIL, a CUDA call) instead of only that it was.
//
// The handler is for a process about to be killed: it uses backtrace(), dladdr() and the
// demangler, which are not async-signal-safe. At worst a thread stuck inside the loader
// or malloc writes nothing, and the supervisor kills the worker on time anyway.
#pragma once

namespace hostcb {

void install_stack_report_handler();

// The same line from the thread that crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT),
// before the signal kills the worker as it would have: a crash report says where it was
// (the layer, the harness, CUDA's callback thread). Left to whoever already handles a
// signal (a sanitizer).
void install_crash_report_handler();

}  // namespace hostcb
