// The Python reproducer: one file that needs the layer's package and cuda-bindings. The
// layer module's source is embedded (less its import of hostcb's helpers), so that the
// program calls the layer exactly as hostcb did; CUDA's own calls go through
// cuda.bindings.runtime, with handles as ints, as the module protocol passes them.
#include <map>
#include <sstream>

#include "repro/writer.hpp"

namespace hostcb::repro {

namespace {

// The module as the program runs it: hostcb's helpers (versions, describe) stay out.
std::string without_hostcb_imports(const std::string& source) {
  std::istringstream in(source);
  std::ostringstream out;
  for (std::string line; std::getline(in, line);)
    if (line.find("import _environment") == std::string::npos) out << line << "\n";
  return out.str();
}

class PythonWriter final : public Writer {
 public:
  explicit PythonWriter(std::string module_source) : module_(without_hostcb_imports(module_source)) {}

  void begin(const Header& h, int sites) override {
    head_ << "#!/usr/bin/env python3\n"
          << "\"\"\"hostcb reproducer for " << h.id << "\n\n"
          << h.summary << ", through the layer " << h.layer << ".\n"
          << "Run: " << h.command << "\n"
          << "Exit 0: every check held. Exit 1: a check failed or a call returned an error (printed).\n"
          << "A crash (a signal) is a failure too.\n"
          << "Needs the layer's package and cuda-bindings (CUDA's own calls), nothing of hostcb. Every check\n"
          << "runs after a synchronize, never in a callback.\"\"\"\n"
          << "import ctypes\nimport sys\nimport types\n\nfrom cuda.bindings import runtime\n\n"
          << "# ---- the layer, as hostcb called it (its layer module) ----\n"
          << "_LAYER_SOURCE = " << source_literal(module_) << "\n"
          << "layer = types.ModuleType(\"layer\")\n"
          << "exec(compile(_LAYER_SOURCE, \"layer module\", \"exec\"), layer.__dict__)\n\n"
          << "# ---- what the program checks ----\n"
          << "SITES = " << sites << "\n"
          << "BASE = 0x1000  # host function #k gets userData BASE + k\n"
          << "calls = [0] * SITES\norder = []\nproblems = []\ncallback_args = []\n\n\n"
          << "def _host_fn(user_data):\n"
          << "    site = (user_data or 0) - BASE\n"
          << "    if 0 <= site < SITES:\n        calls[site] += 1\n        order.append(site)\n"
          << "    else:\n        problems.append(\"a host function was called with userData %r, which none was given\" % user_data)\n\n\n"
          << "def _stream_callback(stream, status, user_data):\n"
          << "    callback_args.append((stream or 0, status))\n    _host_fn(user_data)\n\n\n"
          << "_HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(_host_fn)\n"
          << "_STREAM_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)(_stream_callback)\n"
          << "HOST_FN = ctypes.cast(_HOST_FN, ctypes.c_void_p).value\n"
          << "STREAM_CALLBACK = ctypes.cast(_STREAM_CALLBACK, ctypes.c_void_p).value\n\n\n"
          << "def fail(message):\n    print(\"FAILED: \" + message)\n    sys.exit(1)\n\n\n"
          << "def cuda(call, result):\n"
          << "    \"\"\"A cuda.bindings result tuple: its error checked, its value as an int (handles) or list.\"\"\"\n"
          << "    err = result[0]\n"
          << "    if int(err) != 0:\n        fail(\"%s returned %s (%d)\" % (call, getattr(err, \"name\", err), int(err)))\n"
          << "    if len(result) == 1:\n        return None\n"
          << "    value = result[1]\n    return [int(v) for v in value] if isinstance(value, list) else int(value)\n\n\n"
          << "def through_layer(operation, result):\n"
          << "    \"\"\"A layer operation's result: 0, or (0, handle).\"\"\"\n"
          << "    err, value = (result, None) if isinstance(result, int) else result\n"
          << "    if err != 0:\n        fail(\"the layer's %s returned %d\" % (operation, err))\n    return value\n\n\n"
          << "def expect_calls(site, want, when):\n"
          << "    if problems:\n        fail(problems[0])\n"
          << "    if calls[site] != want:\n"
          << "        fail(\"%s, host function #%d was called %d time%s; expected %d\" % (when, site, calls[site], \"\" if calls[site] == 1 else \"s\", want))\n\n\n"
          << "def sync(stream):\n    cuda(\"cudaStreamSynchronize\", runtime.cudaStreamSynchronize(runtime.cudaStream_t(init_value=stream)))\n\n\n"
          << "def host_nodes(graph, expected):\n"
          << "    handle = runtime.cudaGraph_t(init_value=graph)\n"
          << "    err, _, count = runtime.cudaGraphGetNodes(handle)  # numNodes 0: the count only\n"
          << "    cuda(\"cudaGraphGetNodes\", (err,))\n"
          << "    nodes = cuda(\"cudaGraphGetNodes\", runtime.cudaGraphGetNodes(handle, count)[:2])\n"
          << "    hosts = [n for n in nodes if cuda(\"cudaGraphNodeGetType\", runtime.cudaGraphNodeGetType(runtime.cudaGraphNode_t(init_value=n)))\n"
          << "             == int(runtime.cudaGraphNodeType.cudaGraphNodeTypeHost)]\n"
          << "    if len(hosts) != expected:\n        fail(\"the graph holds %d host nodes; expected %d\" % (len(hosts), expected))\n"
          << "    return hosts\n\n\n";
    line("def main():");
    indent_ = 1;
  }

  std::string stream() override {
    const std::string s = name("stream");
    line(s + " = cuda(\"cudaStreamCreate\", runtime.cudaStreamCreate())");
    return s;
  }
  void begin_capture(const std::string& s, int mode) override {
    line("cuda(\"cudaStreamBeginCapture\", runtime.cudaStreamBeginCapture(runtime.cudaStream_t(init_value=" + s +
         "), runtime.cudaStreamCaptureMode(" + std::to_string(mode) + ")))" + mode_comment(mode));
  }
  std::string end_capture(const std::string& s) override {
    const std::string g = name("graph");
    line(g + " = cuda(\"cudaStreamEndCapture\", runtime.cudaStreamEndCapture(runtime.cudaStream_t(init_value=" + s + ")))");
    return g;
  }
  std::string create_graph() override {
    const std::string g = name("graph");
    line(g + " = cuda(\"cudaGraphCreate\", runtime.cudaGraphCreate(0))");
    return g;
  }
  std::string clone(const std::string& graph) override {
    const std::string g = name("graph");
    line(g + " = cuda(\"cudaGraphClone\", runtime.cudaGraphClone(runtime.cudaGraph_t(init_value=" + graph + ")))");
    return g;
  }
  void add_child_graph_node(const std::string& parent, const std::string& child) override {
    line("cuda(\"cudaGraphAddChildGraphNode\", runtime.cudaGraphAddChildGraphNode(runtime.cudaGraph_t(init_value=" + parent +
         "), [], 0, runtime.cudaGraph_t(init_value=" + child + ")))");
  }
  std::string host_nodes(const std::string& graph, int expected) override {
    const std::string n = name("nodes");
    line(n + " = host_nodes(" + graph + ", " + std::to_string(expected) + ")");
    return n;
  }
  std::string node(const std::string& nodes, int index) override { return nodes + "[" + std::to_string(index) + "]"; }
  std::string instantiate(const std::string& graph) override {
    const std::string e = name("exec");
    line(e + " = cuda(\"cudaGraphInstantiate\", runtime.cudaGraphInstantiate(runtime.cudaGraph_t(init_value=" + graph + "), 0))");
    return e;
  }
  void upload(const std::string& e, const std::string& s) override {
    line("cuda(\"cudaGraphUpload\", runtime.cudaGraphUpload(runtime.cudaGraphExec_t(init_value=" + e +
         "), runtime.cudaStream_t(init_value=" + s + ")))");
  }
  void launch(const std::string& e, const std::string& s) override {
    line("cuda(\"cudaGraphLaunch\", runtime.cudaGraphLaunch(runtime.cudaGraphExec_t(init_value=" + e +
         "), runtime.cudaStream_t(init_value=" + s + ")))");
  }
  void synchronize(const std::string& s) override { line("sync(" + s + ")"); }
  void destroy_exec(const std::string& e) override {
    line("cuda(\"cudaGraphExecDestroy\", runtime.cudaGraphExecDestroy(runtime.cudaGraphExec_t(init_value=" + e + ")))");
  }
  void destroy_graph(const std::string& g) override {
    line("cuda(\"cudaGraphDestroy\", runtime.cudaGraphDestroy(runtime.cudaGraph_t(init_value=" + g + ")))");
  }

  void layer_begin_capture(const std::string& s, int mode) override {
    line("through_layer(\"begin_capture\", layer.begin_capture(" + s + ", " + std::to_string(mode) + "))" + mode_comment(mode));
  }
  std::string layer_end_capture(const std::string& s) override {
    const std::string g = name("graph");
    line(g + " = through_layer(\"end_capture\", layer.end_capture(" + s + "))");
    return g;
  }
  void layer_launch_host_func(const std::string& s, int site) override {
    line("through_layer(\"launch_host_func\", layer.launch_host_func(" + s + ", HOST_FN, BASE + " + std::to_string(site) + "))");
  }
  std::string layer_add_host_node(const std::string& g, const std::vector<std::string>& deps, int site) override {
    const std::string n = name("node");
    std::string list;
    for (const auto& d : deps) list += (list.empty() ? "" : ", ") + d;
    line(n + " = through_layer(\"add_host_node\", layer.add_host_node(" + g + ", [" + list + "], HOST_FN, BASE + " +
         std::to_string(site) + "))");
    return n;
  }
  void layer_add_stream_callback(const std::string& s, int site) override {
    line("through_layer(\"add_stream_callback\", layer.add_stream_callback(" + s + ", STREAM_CALLBACK, BASE + " +
         std::to_string(site) + "))");
  }
  void layer_graph_set_host_node(const std::string& g, const std::string& n, int site) override {
    line("through_layer(\"graph_set_host_node\", layer.graph_set_host_node(" + g + ", " + n + ", HOST_FN, BASE + " +
         std::to_string(site) + "))");
  }
  void layer_exec_set_host_node(const std::string& e, const std::string& n, int site) override {
    line("through_layer(\"exec_set_host_node\", layer.exec_set_host_node(" + e + ", " + n + ", HOST_FN, BASE + " +
         std::to_string(site) + "))");
  }

  void launches(std::int64_t count) override {
    line("for launch in range(1, " + std::to_string(count + 1) + "):");
    ++indent_;
  }
  void end_launches() override { --indent_; }

  void expect_calls(int site, Expected e, const std::string& when) override {
    const std::string where = indent_ > 1 ? "\"" + when + " \" + str(launch)" : python_string(when);
    line("expect_calls(" + std::to_string(site) + ", " + count_expression(e) + ", " + where + ")");
  }
  void expect_order(const std::vector<int>& pattern) override {
    std::string list;
    for (int site : pattern) list += (list.empty() ? "" : ", ") + std::to_string(site);
    line("want = [" + list + "] * (len(order) // " + std::to_string(pattern.size()) + ")");
    line("if order != want:");
    line("    fail(\"the host functions were called in the order %s; expected %s\" % (order, want))");
  }
  void expect_callback_arguments(const std::string& s) override {
    line("for k, (handed, status) in enumerate(callback_args):");
    line("    if handed != " + s + ":");
    line("        fail(\"stream callback %d was handed stream %#x; it was enqueued on %#x\" % (k, handed, " + s + "))");
    line("    if status != 0:");
    line("        fail(\"stream callback %d was handed status %d; expected 0 (success)\" % (k, status))");
  }

  std::string finish() override {
    line("print(\"ok: every check held\")");
    indent_ = 0;
    line("");
    line("");
    line("if __name__ == \"__main__\":");
    line("    main()");
    return head_.str() + body_.str();
  }

 private:
  static std::string python_string(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
      if (c == '\\' || c == '"') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    return out + "\"";
  }
  // The module's text as it reads: a raw triple-quoted string where it can be one.
  static std::string source_literal(const std::string& text) {
    if (text.find("'''") == std::string::npos && (text.empty() || text.back() != '\\'))
      return "r'''" + text + "'''";
    return python_string(text);
  }
  static std::string mode_comment(int mode) {
    static const char* names[] = {"global", "thread-local", "relaxed"};
    return std::string("  # ") + (mode >= 0 && mode < 3 ? names[mode] : "?") + " mode";
  }
  std::string name(const std::string& kind) { return kind + std::to_string(counts_[kind]++); }
  void line(const std::string& text) { body_ << std::string(4 * indent_, ' ') << text << "\n"; }

  std::string module_;
  std::ostringstream head_, body_;
  int indent_ = 0;
  std::map<std::string, int> counts_;
};

}  // namespace

std::unique_ptr<Writer> python_writer(const std::string& module_source) {
  return std::make_unique<PythonWriter>(module_source);
}

}  // namespace hostcb::repro
