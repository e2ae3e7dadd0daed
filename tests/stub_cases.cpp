#include "stub_cases.hpp"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "callback/wait.hpp"
#include "cuda/forwarding.hpp"
#include "model/errors.hpp"
#include "runner/scenario_run.hpp"
#include "exec/worker_process.hpp"
#include "protocol/worker_protocol.hpp"
#include "sim_cases.hpp"

namespace hostcb::stub {

namespace {

// With HOSTCB_STUB_BUSY set to a folder, a scenario's body holds a file there named after
// its process while it runs: what runs beside it can be seen.
class BusyMark {
 public:
  BusyMark() {
    if (const char* dir = std::getenv("HOSTCB_STUB_BUSY")) {
      path_ = str(dir, "/busy-", getpid());
      std::fclose(std::fopen(path_.c_str(), "w"));
    }
  }
  ~BusyMark() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  BusyMark(const BusyMark&) = delete;
  BusyMark& operator=(const BusyMark&) = delete;
  // Whether another process's body is running now.
  bool others() const {
    const char* dir = std::getenv("HOSTCB_STUB_BUSY");
    if (!dir) return false;
    bool found = false;
    if (DIR* d = opendir(dir)) {
      while (dirent* e = readdir(d))
        if (std::string(e->d_name).rfind("busy-", 0) == 0 && str(dir, "/", e->d_name) != path_) found = true;
      closedir(d);
    }
    return found;
  }

 private:
  std::string path_;
};

// With HOSTCB_STUB_PROCESSES set to a folder, a body leaves a file there named `kind`-PID:
// how many worker processes ran which scenarios can be counted.
void mark_process(const char* kind) {
  if (const char* dir = std::getenv("HOSTCB_STUB_PROCESSES"))
    std::fclose(std::fopen(str(dir, "/", kind, "-", getpid()).c_str(), "w"));
}

// Waits (up to 5 s) until files named `names` are all in `dir`, having put its own there.
bool meet(const std::string& dir, const std::string& own, const std::vector<std::string>& names) {
  std::fclose(std::fopen((dir + "/arrived-" + own).c_str(), "w"));
  auto arrived = [&] {
    for (const auto& name : names)
      if (FILE* f = std::fopen((dir + "/arrived-" + name).c_str(), "r"))
        std::fclose(f);
      else
        return false;
    return true;
  };
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!arrived() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return arrived();
}

void behave(ScenarioRun& run, const std::string& how) {
  BusyMark busy;
  mark_process("shared");
  // A host function that finds no armed probe: an orphan event in whatever process runs
  // the body (a worker, by default), which must still fail the run.
  if (how == "orphan") Probe::entry(nullptr);
  Probe& probe = run.make_probe(1, 1);
  run.set_launch(1, 5);
  if (how == "fail_then_crash") {
    HOSTCB_EXPECT(how != "fail_then_crash", "a failure the crash must not swallow");
    raise(SIGSEGV);
  }
  if (how == "crash") {
    run.set_launch(2, 5);
    std::fprintf(stderr, "stub: about to crash\n");
    std::fflush(stderr);
    raise(SIGSEGV);
  }
  if (how == "abort") std::abort();
  if (how == "exit") std::_Exit(3);
  if (how == "hang" || how == "hang_own_limit") {
    run.set_launch(3, 5);
    std::this_thread::sleep_for(std::chrono::hours(1));
  }
  if (how == "garbage") {
    const char text[] = "this is not an event\n";
    ssize_t ignored = ::write(protocol::kEventsFd, text, sizeof text - 1);
    (void)ignored;
  }
  if (how == "slow") std::this_thread::sleep_for(std::chrono::milliseconds(300));
  if (how == "meet")  // copies 1-4 pass only when four workers run them side by side
    if (const char* dir = std::getenv("HOSTCB_STUB_MEET")) {
      const bool met = meet(dir, run.param("copy"), std::vector<std::string>{"1", "2", "3", "4"});
      HOSTCB_EXPECT(met, "four workers did not run side by side");
    }
  if (how == "fail") HOSTCB_EXPECT(how != "fail", "the stub failed on purpose");
  if (how == "many_failures")  // more than the channel keeps: the rest are counted
    for (int i = 1; i <= 40; ++i) HOSTCB_EXPECT(i == 0, str("failure ", i, " of 40"));
  Probe::entry(probe.user_data(0));  // the one "callback"
}

// stub_shared_fault's scenario around its shared "fault".
std::atomic<int> g_armed{0}, g_strikes{0}, g_armed_at_first_strike{-1};

class StubFault final : public ArmedFault {
 public:
  explicit StubFault(ScenarioRun& run) : run_(run), probe_(run.make_probe(1, 1)) { ++g_armed; }
  ~StubFault() override {
    if (caller_.joinable()) caller_.join();
    if (late_.joinable()) late_.join();
  }
  void strike() override {
    int none = -1;
    g_armed_at_first_strike.compare_exchange_strong(none, g_armed.load());
    ++g_strikes;
    caller_ = std::thread([user_data = probe_.user_data(0)] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      Probe::entry(user_data);
    });
    if (run_.param("check") == "late")  // calls once more, after it has been judged
      late_ = std::thread([user_data = probe_.user_data(0)] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        Probe::entry(user_data);
      });
  }
  void check() override {
    mark_process("shared_fault");
    const std::string& how = run_.param("check");
    if (how == "crash") raise(SIGSEGV);
    HOSTCB_EXPECT(how != "fail", "the stub failed on purpose");
    if (how == "slow") std::this_thread::sleep_for(std::chrono::milliseconds(600));
    wait_until([&] { return probe_.total_calls() > 0; }, 5.0);
    caller_.join();
    run_.set_property("process", std::to_string(getpid()));
    run_.set_property("armed_at_first_strike", std::to_string(g_armed_at_first_strike.load()));
    run_.set_property("strikes", std::to_string(g_strikes.load()));
  }

 private:
  ScenarioRun& run_;
  Probe& probe_;
  std::thread caller_, late_;
};

}  // namespace

void register_stub_cases(Registry& registry) {
  // Host functions through a loaded adapter, three times, by each operation a layer may
  // own: needs no CUDA as long as the adapter needs none (the fakes call the function at
  // once, and hand back stand-in handles the body never gives to CUDA). The stream is a
  // stand-in too, but a stream callback must still hand it back. Built-in layers call
  // CUDA, so they are excluded here, as is an operation the adapter lacks.
  Family forward;
  forward.name = "stub_forward";
  forward.needs_gpu = false;
  forward.axes = {Axis::choice("forward", forwarder_names()).selecting(),
                  Axis::choice("op", {"launch_host_func", "add_host_node", "add_stream_callback", "capture",
                                      "graph_set_host_node", "exec_set_host_node"})};
  forward.excluded = [](const Params& p) -> std::optional<std::string> {
    for (const char* builtin : {"direct", "oneshot", "graph_owned"})
      if (p.get("forward") == builtin) return std::string("a built-in layer calls CUDA");
    const std::string& op = p.get("op");
    LayerOp needed = op == "add_host_node"         ? LayerOp::add_host_node
                     : op == "add_stream_callback" ? LayerOp::add_stream_callback
                     : op == "capture"             ? LayerOp::capture
                     : op == "graph_set_host_node" ? LayerOp::graph_set_host_node
                     : op == "exec_set_host_node"  ? LayerOp::exec_set_host_node
                                                   : LayerOp::launch_host_func;
    return missing_operation(p.get("forward"), {needed});
  };
  forward.body = [](ScenarioRun& run) {
    const GraphApi& api = graph_api("runtime");
    Forwarder& layer = run.forward();
    const std::string& op = run.param("op");
    Probe& probe = run.make_probe(1, 3);
    static int stand_in;
    auto* stream = reinterpret_cast<cudaStream_t>(&stand_in);
    void* site = op == "add_stream_callback" ? probe.stream_callback_user_data(0, stream) : probe.user_data(0);
    if (op == "capture") layer.begin_capture(api, stream, CaptureMode::relaxed);
    for (std::int64_t launch = 1; launch <= 3; ++launch) {
      run.set_launch(launch, 3);
      if (op == "add_host_node") layer.add_host_node(api, nullptr, {}, Probe::host_fn(), site);
      else if (op == "add_stream_callback") layer.add_stream_callback(api, stream, Probe::status_fn(), site);
      else if (op == "graph_set_host_node") layer.graph_set_host_node(api, nullptr, nullptr, Probe::host_fn(), site);
      else if (op == "exec_set_host_node") layer.exec_set_host_node(api, nullptr, nullptr, Probe::host_fn(), site);
      else layer.launch_host_func(api, stream, Probe::host_fn(), site);
    }
    if (op == "capture") layer.end_capture(api, stream).release();  // a stand-in, not a CUDA graph
  };
  registry.add(forward);

  Family stub;
  stub.name = "stub";
  stub.needs_gpu = false;
  stub.axes = {Axis::choice("behave", {"pass", "fail", "crash", "fail_then_crash", "abort", "exit", "hang", "garbage",
                                       "slow", "hang_own_limit", "many_failures", "orphan", "meet"}),
               Axis::count("copy", {1}, 10000)};
  stub.body = [](ScenarioRun& run) { behave(run, run.param("behave")); };
  // The family's own limit, tighter than any run's: it must win over --timeout.
  stub.timeout = [](const Params& p) { return p.get("behave") == "hang_own_limit" ? 0.5 : 0.0; };
  registry.add(stub);

  // Passes twice, then fails, in each process: a race that shows on the third try, for
  // run --repeat / --until-fail (all passes run in one worker).
  Family flaky;
  flaky.name = "stub_flaky";
  flaky.needs_gpu = false;
  flaky.body = [](ScenarioRun& run) {
    static int calls = 0;
    behave(run, ++calls == 3 ? "fail" : "pass");
  };
  registry.add(flaky);

  // Needs a fresh process each, like device_fault, and so the device to itself: with
  // HOSTCB_STUB_BUSY set, it fails when another scenario's body runs while it does.
  Family fresh;
  fresh.name = "stub_fresh";
  fresh.needs_gpu = false;
  fresh.fresh_process = true;
  fresh.axes = {Axis::count("copy", {1, 2, 3}, 10000)};
  fresh.body = [](ScenarioRun& run) {
    BusyMark busy;
    mark_process("alone");
    Probe& probe = run.make_probe(1, 1);
    bool alone = true;
    for (int look = 0; look < 20 && alone; ++look) {
      alone = !busy.others();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    HOSTCB_EXPECT(alone, "a scenario that needs the device to itself ran beside another");
    Probe::entry(probe.user_data(0));
  };
  registry.add(fresh);

  // Shares one "fault" per key (model/shared_fault.hpp), as device_fault does on a GPU: each
  // scenario arms, all strike, then each checks. Its one callback comes from a thread of
  // its own a moment after its strike, as CUDA's would after a fault, so it may arrive while
  // a neighbour is being checked. Properties say which process ran it, how many scenarios
  // had armed by the first strike, and how many strikes that process saw.
  Family shared;
  shared.name = "stub_shared_fault";
  shared.needs_gpu = false;
  shared.fresh_process = true;
  shared.axes = {Axis::choice("key", {"a", "b"}), Axis::choice("check", {"pass", "fail", "crash", "late", "slow"}),
                 Axis::count("copy", {1, 2, 3}, 10000)};
  shared.shared_fault.key = [](const Params& p) { return p.get("key"); };
  shared.shared_fault.arm = [](ScenarioRun& run) -> std::unique_ptr<ArmedFault> { return std::make_unique<StubFault>(run); };
  shared.body = body_alone(shared.shared_fault.arm);
  registry.add(shared);

  Family control;
  control.name = "stub_control";
  control.needs_gpu = false;
  control.axes = {Axis::choice("case", {"caught_fail", "caught_crash", "escapes", "needs_newer_cuda"})};
  control.body = [](ScenarioRun& run) {
    const std::string& c = run.param("case");
    behave(run, c == "caught_fail" ? "fail" : c == "caught_crash" ? "crash" : "pass");
  };
  control.control = [](const Params& p) -> std::optional<ExpectedVerdict> {
    if (p.get("case") == "caught_crash") return ExpectedVerdict{{Status::error}, "SEGV"};  // ASan: "SEGV on"
    return ExpectedVerdict{{Status::failed}, ""};
  };
  control.requirements = [](const Params& p) {
    Requirements needs;
    if (p.get("case") == "needs_newer_cuda") needs.min_runtime = 99000;  // never met: skipped
    return needs;
  };
  registry.add(control);

  // stub_device/device=<d>/copy=<n>: passes only in a worker started on device d, for
  // jobs spread over devices (the stub needs none: the ordinal only travels).
  Family on_device;
  on_device.name = "stub_device";
  on_device.needs_gpu = false;
  on_device.axes = {Axis::choice("device", {"0", "1"}), Axis::count("copy", {1}, 10000)};
  on_device.body = [](ScenarioRun& run) {
    HOSTCB_EXPECT(std::to_string(run.device()) == run.param("device"), str("ran in a worker on device ", run.device()));
    behave(run, "pass");
  };
  registry.add(on_device);

  // stub_freed_record/read=after_free: a broken layer's shape without CUDA: it frees the
  // record it keeps for a host function, then reads the function's address back through it.
  // Where the freed bytes still hold it, this passes by luck; with the workers' poisoning
  // (exec/poisoned_frees.hpp) it reads the poison and fails. The properties say what the
  // worker's environment held.
  Family freed;
  freed.name = "stub_freed_record";
  freed.needs_gpu = false;
  freed.axes = {Axis::choice("read", {"after_free"})};
  freed.body = [](ScenarioRun& run) {
    struct Kept {
      char header[48];  // past what the allocator writes into a freed chunk's start
      std::uint64_t fn;
      char trailer[48];  // and its end (the next chunk's size of the previous)
    };
    auto* kept = new Kept{};
    const auto address = reinterpret_cast<std::uintptr_t>(&kept->fn);
    *reinterpret_cast<volatile std::uint64_t*>(address) = 0x5eed5eed5eed5eedULL;  // kept, though freed next
    delete kept;  // the bug: a later call still reads it
    const std::uint64_t read_back = *reinterpret_cast<volatile const std::uint64_t*>(address);
    for (const char* name : {"MALLOC_PERTURB_", "PYTHONMALLOC"}) {
      const char* value = std::getenv(name);
      run.set_property(name, value ? value : "");
    }
    HOSTCB_EXPECT(read_back == 0x5eed5eed5eed5eedULL,
                  str("the record read after its free holds ", std::hex, read_back, ", not the function it kept"));
    Probe& probe = run.make_probe(1, 1);
    Probe::entry(probe.user_data(0));  // the call it makes through what it read, when that held
  };
  registry.add(freed);

  // Scenarios with a seed, for run --budget: each passes after 50 ms.
  Family seeded;
  seeded.name = "stub_seeded";
  seeded.needs_gpu = false;
  seeded.axes = {Axis::count("seed", {1, 2, 3})};
  seeded.body = [](ScenarioRun& run) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    behave(run, "pass");
  };
  registry.add(seeded);
  register_sim_cases(registry);
}

}  // namespace hostcb::stub
