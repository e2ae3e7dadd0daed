#include "runner/stack_report.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "protocol/worker_protocol.hpp"

namespace hostcb {

namespace {

constexpr int kMaxFrames = 24;
constexpr std::size_t kLineSize = 1200;

// Appends `text` to `line` at `used`, keeping room for the newline.
void append(char* line, std::size_t& used, const char* text) {
  for (; *text && used + 2 < kLineSize; ++text) line[used++] = *text;
}

const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

// "hostcb::Runner::run" for _ZN6hostcb6Runner3runERKNS_8ScenarioE: demangled, without
// its parameters, so that a line holds a useful number of frames.
std::string readable(const char* symbol) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
  if (status != 0 || !demangled) return symbol;
  std::string name = demangled;
  std::free(demangled);
  std::size_t open = name.find('(');
  return open == std::string::npos ? name : name.substr(0, open);
}

void report_stack(int) {
  const int saved_errno = errno;
  void* frames[kMaxFrames];
  const int depth = backtrace(frames, kMaxFrames);
  char line[kLineSize];
  std::size_t used = 0;
  char thread[96];
  char name[32] = "?";
  char path[64];
  const long tid = syscall(SYS_gettid);
  std::snprintf(path, sizeof path, "/proc/self/task/%ld/comm", tid);
  int comm = ::open(path, O_RDONLY | O_CLOEXEC);  // the thread's name, as CUDA or Python set it
  if (comm >= 0) {
    ssize_t got = ::read(comm, name, sizeof name - 1);
    name[got > 0 ? got : 0] = '\0';
    name[std::strcspn(name, "\n")] = '\0';
    ::close(comm);
  }
  std::snprintf(thread, sizeof thread, "hostcb stack: thread %ld (%s):", tid, name);
  append(line, used, thread);
  // Frame 0 is this handler and frame 1 the kernel's signal trampoline: start past them.
  for (int i = 2; i < depth; ++i) {
    Dl_info info{};
    char frame[160];
    if (dladdr(frames[i], &info) && info.dli_sname)
      std::snprintf(frame, sizeof frame, "%s %s", i == 2 ? "" : " <", readable(info.dli_sname).c_str());
    else if (info.dli_fname)
      std::snprintf(frame, sizeof frame, "%s %s+%#lx", i == 2 ? "" : " <", base_name(info.dli_fname),
                    static_cast<unsigned long>(reinterpret_cast<char*>(frames[i]) - static_cast<char*>(info.dli_fbase)));
    else
      std::snprintf(frame, sizeof frame, "%s %p", i == 2 ? "" : " <", frames[i]);
    append(line, used, frame);
  }
  line[used++] = '\n';
  for (std::size_t done = 0; done < used;) {
    ssize_t n = ::write(STDERR_FILENO, line + done, used - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  errno = saved_errno;
}

// A crash: the crashing thread writes where it was, then the signal takes its default
// course (the handler is reset on entry and the signal not blocked), so the worker still
// dies of it and the supervisor blames the scenario as before, now with the stack in the
// output it quotes. Raised again for a signal sent rather than caused (raise, kill):
// returning would carry on as if nothing had happened.
void report_crash(int signo) {
  report_stack(signo);
  raise(signo);
}

}  // namespace

void install_crash_report_handler() {
  for (int signo : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) {
    struct sigaction current {};
    // A sanitizer or an embedded interpreter that handles crashes itself reports them
    // better: only a signal nobody handles gets this report.
    if (sigaction(signo, nullptr, &current) != 0 || (current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL)
      continue;
    struct sigaction action {};
    action.sa_handler = report_crash;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigaction(signo, &action, nullptr);
  }
}

void install_stack_report_handler() {
  void* warm[1];
  backtrace(warm, 1);  // its first call loads libgcc_s: not inside a signal handler
  struct sigaction action {};
  action.sa_handler = report_stack;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(protocol::kStackReportSignal, &action, nullptr);
}

}  // namespace hostcb
