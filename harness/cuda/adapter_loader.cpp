#include "cuda/adapter_loader.hpp"
#include "cuda/adapter_names.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>

#include "model/axes.hpp"
#include "cuda/cuda_check.hpp"
#include "model/errors.hpp"
#include "cuda/forwarding.hpp"
#include "hostcb/adapter.h"

namespace hostcb {

namespace {

std::mutex g_mutex;
std::vector<AdapterInfo> g_loaded;
std::vector<void (*)()> g_teardowns;

// The byte count of `struct hostcb_adapter` up to and including `member`.
#define HOSTCB_SIZE_THROUGH(member) (offsetof(hostcb_adapter, member) + sizeof(hostcb_adapter::member))

static_assert(std::is_same_v<StatusFn, hostcb_stream_callback>,
              "a scenario's stream callback is handed to a plugin as it is");

// A forwarding layer made of an adapter's function table.
class AdapterForwarder final : public Forwarder {
 public:
  AdapterForwarder(const hostcb_adapter& table, std::string name, std::string describe)
      : table_(table), name_(std::move(name)), describe_(std::move(describe)) {}
  const char* name() const override { return name_.c_str(); }
  std::string describe() const override { return describe_; }
  bool launches_only_in_own_capture() const override { return table_.launch_scope != HOSTCB_LAUNCH_ANYWHERE; }
  bool has(LayerOp op) const override {
    switch (op) {
      case LayerOp::launch_host_func: return table_.launch_host_func != nullptr;
      case LayerOp::add_host_node: return table_.add_host_node != nullptr;
      case LayerOp::add_stream_callback: return table_.add_stream_callback != nullptr;
      case LayerOp::capture: return table_.begin_capture != nullptr && table_.end_capture != nullptr;
      case LayerOp::graph_set_host_node: return table_.graph_set_host_node != nullptr;
      case LayerOp::exec_set_host_node: return table_.exec_set_host_node != nullptr;
      case LayerOp::launch_on_forked_stream:
        return table_.launch_host_func != nullptr && table_.launch_scope != HOSTCB_LAUNCH_ON_OWN_CAPTURE_STREAM;
    }
    return false;
  }

  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    require(LayerOp::launch_host_func);
    check(api, table_.launch_host_func(stream, fn, user_data), "launch_host_func");
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    require(LayerOp::add_host_node);
    void* node = nullptr;
    check(api, table_.add_host_node(graph, reinterpret_cast<void* const*>(deps.data()), deps.size(), fn, user_data, &node),
          "add_host_node");
    return static_cast<cudaGraphNode_t>(node);
  }
  void add_stream_callback(const GraphApi& api, cudaStream_t stream, StatusFn fn, void* user_data) override {
    require(LayerOp::add_stream_callback);
    // StatusFn is hostcb_stream_callback: the scenario's function and userData go to the
    // plugin as they are, so every argument the layer hands back reaches the probe's checks.
    check(api, table_.add_stream_callback(stream, fn, user_data), "add_stream_callback");
  }
  void begin_capture(const GraphApi& api, cudaStream_t stream, CaptureMode mode) override {
    require(LayerOp::capture);
    check(api, table_.begin_capture(stream, static_cast<int>(mode)), "begin_capture");
  }
  Graph end_capture(const GraphApi& api, cudaStream_t stream) override {
    require(LayerOp::capture);
    void* graph = nullptr;
    int code = table_.end_capture(stream, &graph);
    Graph owned(static_cast<cudaGraph_t>(graph));  // ours even when the call failed after making it
    check(api, code, "end_capture");
    if (!graph) throw CudaError(str("adapter ", name_, ": end_capture(...) gave no graph"), 0, "success", HOSTCB_HERE);
    return owned;
  }
  void graph_set_host_node(const GraphApi& api, cudaGraph_t graph, cudaGraphNode_t node, HostFn fn,
                           void* user_data) override {
    require(LayerOp::graph_set_host_node);
    check(api, table_.graph_set_host_node(graph, node, fn, user_data), "graph_set_host_node");
  }
  void exec_set_host_node(const GraphApi& api, cudaGraphExec_t exec, cudaGraphNode_t node, HostFn fn,
                          void* user_data) override {
    require(LayerOp::exec_set_host_node);
    check(api, table_.exec_set_host_node(exec, node, fn, user_data), "exec_set_host_node");
  }

 private:
  // Scenarios that need a missing operation are excluded when planned; this is the
  // backstop for a body that asks anyway.
  void require(LayerOp op) const {
    if (!has(op)) throw SkipScenario(name_ + " has no " + layer_op_name(op));
  }
  // A failed adapter call is a CUDA error like any other: the call, the code's name,
  // and what the adapter itself said.
  void check(const GraphApi& api, int code, const char* call) const {
    if (code == 0) return;
    std::string name = api.error_name(code);
    if (table_.last_error)
      if (const char* said = table_.last_error()) name += str(" [", name_, ": ", said, "]");
    throw CudaError(str("adapter ", name_, ": ", call, "(...)"), code, name, HOSTCB_HERE);
  }

  hostcb_adapter table_;  // the plugin's struct up to its struct_size; later members zero
  std::string name_;
  std::string describe_;
};

// "name=version" lines, as the ABI's versions() gives them; malformed lines are skipped.
std::vector<std::pair<std::string, std::string>> parse_versions(const char* text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string all = text ? text : "";
  std::size_t start = 0;
  while (start < all.size()) {
    std::size_t end = all.find('\n', start);
    if (end == std::string::npos) end = all.size();
    std::string line = all.substr(start, end - start);
    std::size_t eq = line.find('=');
    if (eq != std::string::npos && eq > 0 && eq + 1 < line.size()) out.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    start = end + 1;
  }
  return out;
}

// The libraries loaded as adapters, so that one loaded twice is refused: a plugin has
// one state per process, which a second init would overwrite under the first's name.
std::vector<std::pair<void*, std::string>> g_libraries;

}  // namespace

namespace {

bool names_something(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// A path without a '/' is a file in the current folder, as the docs say, not a name for
// dlopen to look up in the library path ("cannot open shared object file").
std::string as_file_path(const std::string& path) {
  return path.empty() || path.find('/') != std::string::npos ? path : "./" + path;
}

AdapterSpec spec_split_at(const std::string& spec, std::size_t at) {
  if (at == std::string::npos) return {as_file_path(spec), "", false, spec};
  return {as_file_path(spec.substr(0, at)), spec.substr(at + 1), true, spec.substr(0, at)};
}

}  // namespace

AdapterSpec split_adapter_spec(const std::string& spec) {
  // A folder may hold an '@': the path is the longest prefix that names a file, so that
  // "/opt/a@b/x.so@name=y" is /opt/a@b/x.so with options "name=y".
  if (names_something(spec)) return spec_split_at(spec, std::string::npos);
  for (std::size_t at = spec.rfind('@'); at != std::string::npos && at > 0; at = spec.rfind('@', at - 1))
    if (names_something(spec.substr(0, at))) return spec_split_at(spec, at);
  // Nothing there: the missing file runs from its deepest existing folder to the next '@'
  // ("/x/a@b/nope.so@o=1" with a folder a@b names /x/a@b/nope.so, not /x/a).
  std::size_t folder_end = 0;
  for (std::size_t slash = spec.find('/'); slash != std::string::npos; slash = spec.find('/', slash + 1))
    if (names_something(spec.substr(0, slash + 1))) folder_end = slash + 1;
  return spec_split_at(spec, spec.find('@', folder_end));
}

namespace {

// Loads, checks and (unless `keep` is false) registers the adapter. Called in a child
// process first, where a crash in its init costs nothing.
AdapterInfo load_checked(const AdapterSpec& s, bool keep) {
  auto fail = [&](const std::string& why) { return UsageError(str("adapter '", s.label, "': ", why)); };
  if (s.path.empty()) throw UsageError("adapter: the path is empty (give PATH[@OPTIONS])");  // dlopen("") is hostcb itself
  if (s.has_options && s.options.empty())  // an init would get "" and say nothing
    throw fail("nothing follows its '@': give OPTIONS after it, or leave the '@' out");

  void* library = dlopen(s.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    throw fail(why ? why : "cannot be loaded");
  }
  // Plugins stay loaded for the life of the process: CUDA may call into them until then.
  auto entry = reinterpret_cast<const hostcb_adapter* (*)()>(dlsym(library, "hostcb_adapter_v1"));
  if (!entry) throw fail("exports no hostcb_adapter_v1()");
  const hostcb_adapter* table = entry();
  if (!table) throw fail("hostcb_adapter_v1() returned NULL");
  for (const auto& [handle, name] : g_libraries)
    if (handle == library)
      throw fail(str("is already loaded, as '", name, "'; a plugin has one state per process, so it is loaded once"));
  if (table->abi_version < 1 || table->abi_version > HOSTCB_ADAPTER_ABI_VERSION)
    throw fail(str("built for adapter ABI version ", table->abi_version, "; this hostcb speaks 1 to ",
                   HOSTCB_ADAPTER_ABI_VERSION));
  // Each version's struct ends at its last member; a plugin's may be longer (a later
  // version's), never shorter.
  const std::size_t need = table->abi_version == 1 ? HOSTCB_SIZE_THROUGH(describe) : HOSTCB_SIZE_THROUGH(versions);
  if (table->struct_size < need)
    throw fail(str("its struct hostcb_adapter is ", table->struct_size, " bytes; version ", table->abi_version,
                   " has ", need));
  if (table->abi_version == 1 && !table->launch_host_func) throw fail("has no launch_host_func (required in version 1)");
  // Without options the name is checked before init (a refused adapter never runs), and
  // after init in any case: the ABI lets init set it from its options.
  auto check_name = [&]() -> std::string {
    std::string name = table->name ? table->name : "";
    if (!is_valid_name(name) || name.size() > 40)
      throw fail(str("name '", name, "' is not 1 to 40 of letters, digits, '_' and '.'"));
    for (const auto& taken : forwarder_names(true))
      if (taken == name) throw fail(str("a forwarding layer named '", name, "' is already loaded"));
    return name;
  };
  // Options go to init alone: a plugin without one would drop them without a word.
  if (!table->init && !s.options.empty())
    throw fail(str("takes no options (it has no init); '@", s.options, "' would be dropped"));
  if (!s.has_options) check_name();
  if (table->init && table->init(s.has_options ? s.options.c_str() : nullptr) != 0) {
    const char* said = table->last_error ? table->last_error() : nullptr;
    throw fail(str("init refused", said ? std::string(": ") + said : std::string()));
  }
  // Checked after init, which may fill in the operations (a Python module's, say).
  if (!table->launch_host_func && !table->add_host_node && !table->add_stream_callback) {
    if (table->teardown) table->teardown();
    throw fail("offers no operation (launch_host_func, add_host_node or add_stream_callback)");
  }
  std::string name;
  try {
    name = check_name();
  } catch (const UsageError&) {
    if (table->teardown) table->teardown();  // init ran: a refused adapter is torn down
    throw;
  }
  // Only what the plugin has: members past its struct_size (a version-1 plugin's) stay NULL.
  hostcb_adapter copy{};
  std::memcpy(&copy, table, std::min<std::size_t>(table->struct_size, sizeof copy));
  if (copy.launch_scope > HOSTCB_LAUNCH_ON_OWN_CAPTURE_STREAM) {
    if (table->teardown) table->teardown();  // init ran: a refused adapter is torn down
    throw fail(str("its launch_scope is ", copy.launch_scope, "; it is 0 (anywhere), 1 (in its own capture) or 2 (on its own capture's stream)"));
  }
  AdapterInfo info;
  info.name = name;
  info.path = s.path;
  info.describe = copy.describe && copy.describe() ? copy.describe() : "";
  if (copy.versions) info.versions = parse_versions(copy.versions());
  if (!keep) {
    if (table->teardown) table->teardown();
    return info;
  }
  try {
    register_forwarder(std::make_unique<AdapterForwarder>(copy, name, info.describe));
  } catch (const std::invalid_argument& e) {
    if (table->teardown) table->teardown();  // init ran: a refused adapter is torn down
    throw fail(e.what());
  }
  g_loaded.push_back(info);
  g_libraries.emplace_back(library, name);
  if (table->teardown) g_teardowns.push_back(table->teardown);
  return info;
}

// What the check child said and how it ended, once it has exited. Its init may have
// started processes that hold the pipe open for ever: the child's exit is what is waited
// for, not the pipe's end, and its process group is killed with whatever is left in it.
struct ChildEnd {
  std::string said;
  int status = 0;
};

ChildEnd wait_for_check(pid_t pid, int pipe, const AdapterSpec& s, const AdapterCheckLimits& limits) {
  ChildEnd end;
  auto read_available = [&] {
    char buffer[4096];
    for (ssize_t n; (n = ::read(pipe, buffer, sizeof buffer)) > 0;) end.said.append(buffer, static_cast<std::size_t>(n));
  };
  auto give_up = [&] {
    kill(-pid, SIGKILL);
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    ::close(pipe);
  };
  fcntl(pipe, F_SETFL, fcntl(pipe, F_GETFL) | O_NONBLOCK);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limits.seconds);
  for (;;) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) break;
    double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      give_up();
      throw UsageError(str("adapter '", s.label, "': its init did not finish within ", limits.seconds,
                           " s in a test process; not loaded"));
    }
    pollfd fds[2] = {{pipe, POLLIN, 0}, {limits.interrupt_fd, POLLIN, 0}};
    poll(fds, limits.interrupt_fd >= 0 ? 2 : 1, static_cast<int>(std::min(left * 1000, 100.0)) + 1);
    if (fds[1].revents) {
      give_up();
      throw Interrupted(str("adapter '", s.label, "': interrupted while its init ran in a test process; nothing ran"));
    }
    read_available();
  }
  read_available();
  ::close(pipe);
  kill(-pid, SIGKILL);  // what its init started in the test process goes with it
  while (waitpid(pid, &end.status, 0) < 0 && errno == EINTR) {
  }
  return end;
}

// Runs the whole load, init and teardown in a child: a refusal comes back as its line, a
// crash as "its init crashed", and hostcb itself never runs code that may kill it. The
// child has a time limit, dies with hostcb, and an interrupt stops it.
void check_in_child(const AdapterSpec& s, const AdapterCheckLimits& limits) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(str("pipe2: ", std::strerror(errno)));
  std::fflush(nullptr);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(str("fork: ", std::strerror(errno)));
  if (pid == 0) {
    ::close(fds[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive hostcb
    if (getppid() != parent) _exit(1);
    setpgid(0, 0);  // its own group, killed whole; the terminal's ^C reaches only hostcb
    signal(SIGINT, SIG_DFL);  // hostcb's handlers would only note a signal: this child just dies
    signal(SIGTERM, SIG_DFL);
    // What the adapter or a sanitizer prints while it dies is not hostcb's one line: the
    // refusal comes back through the pipe, a death as the child's status.
    int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
      ::dup2(null, STDOUT_FILENO);
      ::dup2(null, STDERR_FILENO);
    }
    std::string said;
    int code = 0;
    try {
      load_checked(s, false);
    } catch (const std::exception& e) {
      said = e.what();
      code = 2;
    }
    ssize_t ignored = ::write(fds[1], said.data(), said.size());
    (void)ignored;
    _exit(code);  // no atexit handlers, no static destructors of the parent's state
  }
  setpgid(pid, pid);  // as the child does: the group exists whichever runs first
  ::close(fds[1]);
  const ChildEnd end = wait_for_check(pid, fds[0], s, limits);
  const int status = end.status;
  if (WIFSIGNALED(status))
    throw UsageError(str("adapter '", s.label, "': crashed while being loaded and initialised in a test process (",
                         strsignal(WTERMSIG(status)), ", signal ", WTERMSIG(status), "); not loaded"));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 2 && !end.said.empty()) throw UsageError(end.said);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)  // a sanitizer turns a crash into an exit code
    throw UsageError(str("adapter '", s.label, "': crashed while being loaded and initialised in a test process (exit code ",
                         WEXITSTATUS(status), ", no reason given); not loaded"));
}

}  // namespace

AdapterInfo load_adapter(const std::string& spec, AdapterCheck check, const AdapterCheckLimits& limits) {
  std::lock_guard<std::mutex> lock(g_mutex);
  AdapterSpec s;
  if (is_ready_name(spec)) {
    std::vector<std::string> loaded;
    for (const auto& info : g_loaded) loaded.push_back(info.path);
    s = split_adapter_spec(resolve_ready_name(spec, loaded));
    s.label = spec.substr(0, spec.find('@'));
  } else {
    s = split_adapter_spec(spec);
  }
  if (check == AdapterCheck::in_child_first) check_in_child(s, limits);
  return load_checked(s, true);
}

void teardown_adapters() {
  std::lock_guard<std::mutex> lock(g_mutex);
  while (!g_teardowns.empty()) {
    g_teardowns.back()();
    g_teardowns.pop_back();
  }
}

std::vector<AdapterInfo> loaded_adapters() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_loaded;
}

}  // namespace hostcb
