// An adapter's check in a test process (cuda/adapter_loader.hpp): bounded in time, stopped
// by an interrupt, and its child gone afterwards (issue 26, item 7). The fake's init hangs
// after logging "init PID PARENT" to $FAKE_ADAPTER_LOG.
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "catch_compat.hpp"
#include "cuda/adapter_loader.hpp"
#include "exec/interrupt.hpp"
#include "model/errors.hpp"

using namespace hostcb;

namespace {

// Logs the fake's lines to a fresh file for the life of the fixture.
struct FakeLog {
  std::string path;
  explicit FakeLog(const char* name) : path(std::string(HOSTCB_TEST_TMP) + "/" + name) {
    std::remove(path.c_str());
    setenv("FAKE_ADAPTER_LOG", path.c_str(), 1);
  }
  ~FakeLog() { unsetenv("FAKE_ADAPTER_LOG"); }
  long pid_of(const std::string& what) const {
    std::ifstream in(path);
    for (std::string word; in >> word;)
      if (word == what) {
        long pid = 0;
        in >> pid;
        return pid;
      }
    return 0;
  }
};

bool gone(long pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string text((std::istreambuf_iterator<char>(status)), std::istreambuf_iterator<char>());
  return !status || contains(text, "State:\tZ");  // no such process, or a zombie its reaper has not reaped
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("an adapter whose init hangs is refused at the check's time limit, its child killed", "[adapter]") {
  FakeLog log("check_hangs.log");
  auto start = std::chrono::steady_clock::now();
  std::string refusal;
  try {
    load_adapter(HOSTCB_FAKE_INIT_HANGS, AdapterCheck::in_child_first, {0.5, -1});
  } catch (const UsageError& e) {
    refusal = e.what();
  }
  CHECK(seconds_since(start) < 5);
  CHECK(contains(refusal, "its init did not finish within 0.5 s in a test process; not loaded"));
  const long child = log.pid_of("init");
  REQUIRE(child > 0);
  CHECK(gone(child));
}

TEST_CASE("an interrupt stops an adapter's check at once, its child killed", "[adapter]") {
  FakeLog log("check_interrupted.log");
  clear_interrupt();
  std::thread interrupter([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    request_interrupt(SIGTERM);
  });
  auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(load_adapter(HOSTCB_FAKE_INIT_HANGS, AdapterCheck::in_child_first, {60, interrupt_fd()}), Interrupted);
  interrupter.join();
  clear_interrupt();
  CHECK(seconds_since(start) < 5);
  const long child = log.pid_of("init");
  REQUIRE(child > 0);
  CHECK(gone(child));
}
