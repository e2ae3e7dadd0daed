#include "exec/thread_report.hpp"

#include <dirent.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <vector>

#include "protocol/worker_protocol.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "S (sleeping)" from the stat line's third field; the name may hold spaces and parentheses.
std::string thread_state(const std::string& stat) {
  std::size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return "?";
  switch (stat[close + 2]) {
    case 'R': return "running";
    case 'S': return "sleeping";
    case 'D': return "waiting uninterruptibly";
    case 'T': case 't': return "stopped";
    case 'Z': return "zombie";
    default: return std::string(1, stat[close + 2]);
  }
}

}  // namespace

std::string ask_threads_where_they_are(pid_t pid) {
  const std::string tasks = str("/proc/", pid, "/task");
  std::vector<long> tids;
  if (DIR* dir = opendir(tasks.c_str())) {
    while (dirent* entry = readdir(dir))
      if (entry->d_name[0] != '.') tids.push_back(std::atol(entry->d_name));
    closedir(dir);
  }
  std::sort(tids.begin(), tids.end());
  std::string text;
  for (long tid : tids) {
    const std::string task = str(tasks, "/", tid);
    std::string wchan = read_first_line(task + "/wchan");
    text += str("  ", tid, " ", read_first_line(task + "/comm"), ": ", thread_state(read_first_line(task + "/stat")),
                wchan.empty() || wchan == "0" ? std::string() : " in " + wchan, "\n");
    syscall(SYS_tgkill, pid, tid, protocol::kStackReportSignal);
  }
  return text.empty() ? text : "threads when it was stopped:\n" + text;
}

}  // namespace hostcb
