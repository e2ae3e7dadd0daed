#include "reports/report_targets.hpp"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "model/errors.hpp"
#include "reports/atomic_file.hpp"
#include "reports/run_marker.hpp"

namespace hostcb {

namespace {

std::string folder_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// Whether `head` (a file's first bytes) is a report of `t`'s kind: any JUnit file; a hostcb
// JSON document ("format": "hostcb-..."); hostcb's Markdown or HTML. A file that holds
// something else would be lost if replaced (a layer's source, an expectations file, another
// tool's output). Kinds not named here are not checked.
bool holds_report_of_its_kind(const ReportTarget& t, const std::string& head) {
  auto has = [&](const char* text) { return head.find(text) != std::string::npos; };
  auto ends_with = [&](const std::string& tail) {
    return t.what.size() >= tail.size() && t.what.compare(t.what.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (t.what == "JUnit report") return has("<testsuites") || has("<testsuite ");
  if (ends_with("JSON") || ends_with("JSON report")) {  // every hostcb document: "format": "hostcb-..."
    std::size_t format = head.find("\"format\"");
    if (format == std::string::npos) return false;
    std::size_t value = head.find_first_not_of(" \t\r\n:", format + 8);
    return value != std::string::npos && head.compare(value, 8, "\"hostcb-") == 0;
  }
  if (t.what == "Markdown report") return head.rfind("# hostcb", 0) == 0;
  if (ends_with("HTML") || ends_with("HTML report")) return has("<title>hostcb");
  return true;
}

// The first 64 KiB of a regular file, or "" when it cannot be read: enough for a run's
// marker after its environment, however many devices and adapters that names.
std::string head_of(const std::string& path) {
  std::string head(64 * 1024, '\0');
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return "";
  head.resize(std::fread(&head[0], 1, head.size(), f));
  std::fclose(f);
  return head;
}

// The file's identity: its folder's canonical path and its name. Returns "" after
// throwing for anything that rules the target out.
std::string checked_key(const ReportTarget& t) {
  auto refuse = [&](const std::string& why) { return UsageError(str("cannot write ", t.what, " '", t.path, "': ", why)); };
  if (t.path.empty()) throw UsageError(str("cannot write ", t.what, ": the path is empty"));
  const std::string name = name_of(t.path);
  if (name.empty() || name == "." || name == "..") throw refuse("names a folder, not a file");
  struct stat st {};
  if (::lstat(t.path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      throw refuse("is a symbolic link; reports are replaced by a rename, which would replace the link: name its target");
    if (!S_ISREG(st.st_mode)) throw refuse(str("is ", kind_of(st.st_mode), "; only a regular file is replaced"));
    if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0) throw refuse("is read-only; it is not replaced");
    if (::access(t.path.c_str(), W_OK) != 0) throw refuse(str("is not writable: ", std::strerror(errno)));
  } else if (errno != ENOENT) {
    throw refuse(std::strerror(errno));
  }
  const std::string folder = folder_of(t.path);
  struct stat folder_st {};
  if (::stat(folder.c_str(), &folder_st) != 0)
    throw refuse(str("folder '", folder, "': ", std::strerror(errno)));
  if (!S_ISDIR(folder_st.st_mode)) throw refuse(str("'", folder, "' is not a folder"));
  check_writable(t.path, t.what);  // creates and removes a file beside it: the folder takes new files
  char canonical[PATH_MAX];
  if (!::realpath(folder.c_str(), canonical)) throw refuse(str("folder '", folder, "': ", std::strerror(errno)));
  return std::string(canonical) + "/" + name;
}

}  // namespace

void check_report_targets(const std::vector<ReportTarget>& targets, const std::vector<ReportTarget>& inputs) {
  std::map<std::string, const ReportTarget*> seen;
  for (const auto& t : targets) {
    auto [it, fresh] = seen.emplace(checked_key(t), &t);
    if (!fresh)
      throw UsageError(str(t.what, " '", t.path, "' and ", it->second->what, " '", it->second->path,
                           "' name the same file; each report needs its own"));
  }
  for (const auto& input : inputs) {
    char canonical[PATH_MAX];
    if (input.path.empty() || !::realpath(input.path.c_str(), canonical)) continue;  // its reader says why
    auto it = seen.find(canonical);
    if (it != seen.end())
      throw UsageError(str(it->second->what, " '", it->second->path, "' is the ", input.what, " '", input.path,
                           "' this command reads; writing it would replace it: name another file"));
  }
  for (const auto& t : targets) {
    struct stat st {};
    if (::lstat(t.path.c_str(), &st) != 0 || st.st_size == 0) continue;
    const std::string head = head_of(t.path);
    if (!holds_report_of_its_kind(t, head))
      throw UsageError(str("cannot write ", t.what, " '", t.path, "': holds something that is not a ", t.what,
                           "; it would be replaced and lost: remove it, or name another file"));
    // Two runs writing one report at once leave one run's JSON beside the other's JUnit.
    if (const std::string writer = live_writer_of(head); !writer.empty())
      throw UsageError(str("cannot write ", t.what, " '", t.path, "': ", writer,
                           " is writing it and has not finished; give this run reports of its own, or wait"));
  }
}

ReportsWritten write_reports(const std::vector<ReportOutput>& outputs) {
  ReportsWritten done;
  for (const auto& out : outputs) {
    try {
      write_file_atomically(out.target.path, out.content());
      done.written.push_back(out.target.path);
    } catch (const std::exception& e) {
      std::string why = e.what();
      const std::string said = "cannot write " + out.target.path + ": ";  // write_file_atomically's prefix
      if (why.rfind(said, 0) == 0) why.erase(0, said.size());
      done.failed.push_back(str("cannot write ", out.target.what, " '", out.target.path, "': ", why));
    }
  }
  return done;
}

}  // namespace hostcb
