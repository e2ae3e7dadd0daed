#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "catch_compat.hpp"
#include "model/errors.hpp"
#include "reports/atomic_file.hpp"
#include "reports/report_targets.hpp"

using namespace hostcb;

namespace {

// A fresh folder under the test tmp dir for each case.
std::string fresh_dir(const std::string& name) {
  std::string dir = std::string(HOSTCB_TEST_TMP) + "/targets_" + name;
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  return dir;
}

void touch(const std::string& path, const std::string& text = "old\n") { std::ofstream(path) << text; }

std::string read(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string targets_refusal(const std::vector<ReportTarget>& targets) {
  try {
    check_report_targets(targets);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

std::string targets_refusal(const std::string& path) { return targets_refusal({{path, "JUnit report"}}); }

std::string write_error(const std::string& path) {
  try {
    write_file_atomically(path, "x");
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode;
}

}  // namespace

TEST_CASE("report targets: new and regular files are accepted", "[report_targets]") {
  std::string dir = fresh_dir("ok");
  touch(dir + "/old.xml", "");
  CHECK(targets_refusal({{dir + "/new.xml", "JUnit report"}, {dir + "/old.xml", "JSON report"}}).empty());  // new, and empty
}

TEST_CASE("report targets: a file is replaced only when it holds a report of its kind", "[report_targets]") {
  std::string dir = fresh_dir("content");
  auto file = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  const std::string junit = file("a.xml", "<?xml version=\"1.0\"?>\n<testsuites name=\"pytest\">\n</testsuites>\n");
  const std::string json = file("a.json", "{\n  \"format\": \"hostcb-results\",\n  \"format_version\": 3\n}\n");
  const std::string compact = file("m.json", "{\"format\":\"hostcb-matrix\",\"format_version\":1}");
  const std::string markdown = file("m.md", "# hostcb driver matrix\n");
  const std::string html = file("m.html", "<!DOCTYPE html>\n<html><head><title>hostcb driver matrix</title>");
  const std::string layer = file("victim_layer.py", "def launch_host_func(stream, fn, data):\n    pass\n");
  const std::string other = file("other.json", "{\"format\": \"something-else\"}");
  CHECK(targets_refusal({{junit, "JUnit report"}, {json, "JSON report"}, {compact, "matrix JSON"}, {markdown, "Markdown report"},
                 {html, "HTML report"}}).empty());
  for (const auto& [path, what] : std::vector<std::pair<std::string, std::string>>{{layer, "JSON report"},
                                                                                   {layer, "JUnit report"},
                                                                                   {other, "JSON report"},
                                                                                   {json, "JUnit report"},
                                                                                   {junit, "Markdown report"},
                                                                                   {json, "bench HTML"}}) {
    INFO(path << " as " << what);
    CHECK(targets_refusal({{path, what}}) == "cannot write " + what + " '" + path + "': holds something that is not a " + what +
                                          "; it would be replaced and lost: remove it, or name another file");
  }
}

TEST_CASE("report targets: empty paths, folders and non-regular files are refused", "[report_targets]") {
  std::string dir = fresh_dir("kinds");
  CHECK(targets_refusal("") == "cannot write JUnit report: the path is empty");
  CHECK(contains(targets_refusal(dir), "is a directory"));
  CHECK(contains(targets_refusal(dir + "/"), "names a folder"));
  CHECK(contains(targets_refusal("."), "names a folder"));
  REQUIRE(::mkfifo((dir + "/fifo").c_str(), 0644) == 0);
  CHECK(contains(targets_refusal(dir + "/fifo"), "'" + dir + "/fifo': is a FIFO; only a regular file is replaced"));
  int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  // A socket's path must fit sun_path (108 bytes): not under the build folder, whose path is
  // the user's (a deep checkout once failed CI's ASan stage here).
  char short_dir[] = "/tmp/hostcb-sock-XXXXXX";
  REQUIRE(::mkdtemp(short_dir) != nullptr);
  std::string sock_path = std::string(short_dir) + "/sock";
  REQUIRE(sock_path.size() < sizeof address.sun_path);
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", sock_path.c_str());
  REQUIRE(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  CHECK(contains(targets_refusal(sock_path), "is a socket"));
  ::close(sock);
  ::unlink(sock_path.c_str());
  ::rmdir(short_dir);
  CHECK(S_ISFIFO(mode_of(dir + "/fifo")));  // nothing was replaced
}

TEST_CASE("report targets: a symbolic link and a read-only file are refused", "[report_targets]") {
  std::string dir = fresh_dir("link");
  touch(dir + "/real.xml");
  REQUIRE(::symlink("real.xml", (dir + "/link.xml").c_str()) == 0);
  CHECK(contains(targets_refusal(dir + "/link.xml"), "is a symbolic link"));
  touch(dir + "/ro.xml");
  REQUIRE(::chmod((dir + "/ro.xml").c_str(), 0444) == 0);
  CHECK(contains(targets_refusal(dir + "/ro.xml"), "is read-only"));  // by its mode: root may write anything
}

TEST_CASE("report targets: a missing folder or a file as folder is refused", "[report_targets]") {
  std::string dir = fresh_dir("folder");
  CHECK(contains(targets_refusal(dir + "/nosuch/x.xml"), "folder '" + dir + "/nosuch': No such file or directory"));
  touch(dir + "/file");
  CHECK(contains(targets_refusal(dir + "/file/x.xml"), "Not a directory"));
}

TEST_CASE("report targets: the same file named twice is refused, however it is spelled", "[report_targets]") {
  std::string dir = fresh_dir("same");
  REQUIRE(::chdir(dir.c_str()) == 0);
  CHECK(contains(targets_refusal({{"same.out", "JUnit report"}, {"same.out", "JSON report"}}),
                 "JSON report 'same.out' and JUnit report 'same.out' name the same file"));
  CHECK(contains(targets_refusal({{"x", "JUnit report"}, {"./x", "JSON report"}}), "name the same file"));
  CHECK(contains(targets_refusal({{dir + "/x", "JUnit report"}, {"x", "JSON report"}}), "name the same file"));
  CHECK(targets_refusal({{"x", "JUnit report"}, {"y", "JSON report"}}).empty());
  REQUIRE(::chdir(HOSTCB_TEST_TMP) == 0);
}

TEST_CASE("write_file_atomically never replaces a FIFO or a link, and keeps a file's mode", "[report_targets]") {
  std::string dir = fresh_dir("atomic");
  REQUIRE(::mkfifo((dir + "/fifo").c_str(), 0644) == 0);
  CHECK(contains(write_error(dir + "/fifo"), "is not a regular file; not replaced"));
  CHECK(S_ISFIFO(mode_of(dir + "/fifo")));
  touch(dir + "/real");
  REQUIRE(::symlink("real", (dir + "/link").c_str()) == 0);
  CHECK(contains(write_error(dir + "/link"), "is a symbolic link; not replaced"));
  CHECK(S_ISLNK(mode_of(dir + "/link")));
  CHECK(read(dir + "/real") == "old\n");
  touch(dir + "/mode");
  REQUIRE(::chmod((dir + "/mode").c_str(), 0640) == 0);
  write_file_atomically(dir + "/mode", "new\n");
  CHECK((mode_of(dir + "/mode") & 07777) == 0640);
  CHECK(read(dir + "/mode") == "new\n");
  std::system(("ls -A '" + dir + "' > '" + dir + ".ls'").c_str());
  CHECK(read(dir + ".ls") == "fifo\nlink\nmode\nreal\n");  // no temporary file left behind
}

TEST_CASE("every report is attempted: one that cannot be written does not lose the others", "[report_targets]") {
  std::string dir = fresh_dir("write_all");
  REQUIRE(::mkdir((dir + "/gone").c_str(), 0755) == 0);
  std::vector<ReportOutput> outputs = {
      {{dir + "/gone/a.xml", "JUnit report"}, [] { return std::string("<xml/>"); }},
      {{dir + "/b.json", "JSON report"}, [] { return std::string("{}"); }},
      {{dir + "/c.md", "Markdown report"}, []() -> std::string { throw std::runtime_error("no content"); }},
      {{dir + "/d.html", "HTML report"}, [] { return std::string("<html/>"); }}};
  std::vector<ReportTarget> targets;
  for (const auto& o : outputs) targets.push_back(o.target);
  REQUIRE(targets_refusal(targets).empty());
  // Between the check and the write, the JUnit report's folder becomes a regular file
  // (root ignores permission bits, so a read-only folder would not fail).
  REQUIRE(::rmdir((dir + "/gone").c_str()) == 0);
  touch(dir + "/gone");
  ReportsWritten done = write_reports(outputs);
  CHECK_FALSE(done.ok());
  CHECK(done.written == std::vector<std::string>{dir + "/b.json", dir + "/d.html"});
  REQUIRE(done.failed.size() == 2);
  CHECK(done.failed[0] == "cannot write JUnit report '" + dir + "/gone/a.xml': Not a directory");
  CHECK(done.failed[1] == "cannot write Markdown report '" + dir + "/c.md': no content");
  CHECK(read(dir + "/b.json") == "{}");
  CHECK(read(dir + "/d.html") == "<html/>");
}
