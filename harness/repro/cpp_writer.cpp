// The C++ reproducer: one file and one nvcc command. Its layer is either CUDA's runtime API
// itself (`direct`: the baseline a layer is compared with) or a plugin of the adapter ABI,
// linked in and called through the struct its hostcb_adapter_v1() returns, as hostcb calls
// it. Every CUDA call is checked, with its text and line.
#include <map>
#include <sstream>

#include "repro/writer.hpp"

namespace hostcb::repro {

namespace {

std::string c_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

class CppWriter final : public Writer {
 public:
  CppWriter(bool plugin, std::string options) : plugin_(plugin), options_(std::move(options)) {}

  void begin(const Header& h, int sites) override {
    head_ << "// hostcb reproducer for " << h.id << "\n//\n"
          << "// " << h.summary << ", through the layer " << h.layer << ".\n"
          << "// Build and run: " << h.command << "\n"
          << "// Exit 0: every check held. Exit 1: a check failed or a call returned an error (printed).\n"
          << "// A crash (a signal) is a failure too. Every check runs after a synchronize, never in a callback.\n"
          << "#include <cuda_runtime_api.h>\n";
    if (plugin_) head_ << "#include <hostcb/adapter.h>\n";
    head_ << "\n#include <atomic>\n#include <cstdio>\n#include <cstdlib>\n#include <mutex>\n#include <string>\n"
          << "#include <utility>\n#include <vector>\n\nnamespace {\n\n"
          << "constexpr int kSites = " << sites << ";\n"
          << "char tags[kSites];  // host function #k gets userData &tags[k]\n"
          << "std::atomic<int> calls[kSites];\n"
          << "std::mutex seen_mutex;  // guards what the callbacks saw\n"
          << "std::vector<int> order;\nstd::vector<std::string> problems;\n"
          << "std::vector<std::pair<void*, int>> callback_args;  // (stream, status) per stream callback\n\n"
          << "[[noreturn]] void fail(const std::string& message) {\n"
          << "  std::printf(\"FAILED: %s\\n\", message.c_str());\n  std::exit(1);\n}\n\n"
          << "void check(int err, const char* call, int line) {\n"
          << "  if (err != 0)\n"
          << "    fail(std::string(call) + \" returned \" + cudaGetErrorName(static_cast<cudaError_t>(err)) + \" (\" +\n"
          << "         std::to_string(err) + \") at line \" + std::to_string(line));\n}\n"
          << "#define CHECK(call) check(static_cast<int>(call), #call, __LINE__)\n\n"
          << "void host_fn(void* user_data) {\n"
          << "  const long site = static_cast<char*>(user_data) - tags;\n"
          << "  std::lock_guard<std::mutex> lock(seen_mutex);\n"
          << "  if (site < 0 || site >= kSites) {\n"
          << "    problems.push_back(\"a host function was called with a userData that none was given\");\n    return;\n  }\n"
          << "  ++calls[site];\n  order.push_back(static_cast<int>(site));\n}\n\n";
    if (plugin_)
      head_ << "void stream_callback(void* stream, int status, void* user_data) {\n";
    else
      head_ << "void CUDART_CB stream_callback(cudaStream_t stream, cudaError_t status, void* user_data) {\n";
    head_ << "  {\n    std::lock_guard<std::mutex> lock(seen_mutex);\n"
          << "    callback_args.emplace_back(static_cast<void*>(stream), static_cast<int>(status));\n  }\n"
          << "  host_fn(user_data);\n}\n\n"
          << "void expect_calls(int site, int want, const std::string& when) {\n"
          << "  std::lock_guard<std::mutex> lock(seen_mutex);\n"
          << "  if (!problems.empty()) fail(problems.front());\n"
          << "  const int got = calls[site];\n"
          << "  if (got != want)\n"
          << "    fail(when + \", host function #\" + std::to_string(site) + \" was called \" + std::to_string(got) +\n"
          << "         (got == 1 ? \" time\" : \" times\") + \"; expected \" + std::to_string(want));\n}\n\n"
          << "std::vector<cudaGraphNode_t> host_nodes(cudaGraph_t graph, size_t expected) {\n"
          << "  size_t count = 0;\n  CHECK(cudaGraphGetNodes(graph, nullptr, &count));\n"
          << "  std::vector<cudaGraphNode_t> nodes(count), hosts;\n"
          << "  CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));\n"
          << "  for (cudaGraphNode_t node : nodes) {\n    cudaGraphNodeType type;\n"
          << "    CHECK(cudaGraphNodeGetType(node, &type));\n"
          << "    if (type == cudaGraphNodeTypeHost) hosts.push_back(node);\n  }\n"
          << "  if (hosts.size() != expected)\n"
          << "    fail(\"the graph holds \" + std::to_string(hosts.size()) + \" host nodes; expected \" + std::to_string(expected));\n"
          << "  return hosts;\n}\n\n";
    if (!plugin_)
      head_ << "cudaHostNodeParams params_of(int site) {\n  cudaHostNodeParams params{};\n"
            << "  params.fn = host_fn;\n  params.userData = &tags[site];\n  return params;\n}\n\n";
    head_ << "}  // namespace\n\n";
    line("int main() {");
    indent_ = 1;
    if (plugin_) {
      line("// The layer: the plugin linked in, initialized as `--adapter PLUGIN" +
           (options_.empty() ? std::string("") : "@" + options_) + "` initializes it.");
      line("const hostcb_adapter* layer = hostcb_adapter_v1();");
      line("if (layer->init) CHECK(layer->init(" + (options_.empty() ? std::string("nullptr") : c_string(options_)) + "));");
    }
  }

  std::string stream() override {
    const std::string s = name("stream");
    line("cudaStream_t " + s + ";");
    line("CHECK(cudaStreamCreate(&" + s + "));");
    return s;
  }
  void begin_capture(const std::string& s, int mode) override {
    line("CHECK(cudaStreamBeginCapture(" + s + ", " + mode_name(mode) + "));");
  }
  std::string end_capture(const std::string& s) override {
    const std::string g = name("graph");
    line("cudaGraph_t " + g + ";");
    line("CHECK(cudaStreamEndCapture(" + s + ", &" + g + "));");
    return g;
  }
  std::string create_graph() override {
    const std::string g = name("graph");
    line("cudaGraph_t " + g + ";");
    line("CHECK(cudaGraphCreate(&" + g + ", 0));");
    return g;
  }
  std::string clone(const std::string& graph) override {
    const std::string g = name("graph");
    line("cudaGraph_t " + g + ";");
    line("CHECK(cudaGraphClone(&" + g + ", " + graph + "));");
    return g;
  }
  void add_child_graph_node(const std::string& parent, const std::string& child) override {
    const std::string n = name("node");
    line("cudaGraphNode_t " + n + ";");
    line("CHECK(cudaGraphAddChildGraphNode(&" + n + ", " + parent + ", nullptr, 0, " + child + "));");
  }
  std::string host_nodes(const std::string& graph, int expected) override {
    const std::string n = name("nodes");
    line("const std::vector<cudaGraphNode_t> " + n + " = host_nodes(" + graph + ", " + std::to_string(expected) + ");");
    return n;
  }
  std::string node(const std::string& nodes, int index) override { return nodes + "[" + std::to_string(index) + "]"; }
  std::string instantiate(const std::string& graph) override {
    const std::string e = name("exec");
    line("cudaGraphExec_t " + e + ";");
    line("CHECK(cudaGraphInstantiate(&" + e + ", " + graph + ", 0));");
    return e;
  }
  void upload(const std::string& e, const std::string& s) override { line("CHECK(cudaGraphUpload(" + e + ", " + s + "));"); }
  void launch(const std::string& e, const std::string& s) override { line("CHECK(cudaGraphLaunch(" + e + ", " + s + "));"); }
  void synchronize(const std::string& s) override { line("CHECK(cudaStreamSynchronize(" + s + "));"); }
  void destroy_exec(const std::string& e) override { line("CHECK(cudaGraphExecDestroy(" + e + "));"); }
  void destroy_graph(const std::string& g) override { line("CHECK(cudaGraphDestroy(" + g + "));"); }

  void layer_begin_capture(const std::string& s, int mode) override {
    if (plugin_)
      line("CHECK(layer->begin_capture(" + s + ", " + std::to_string(mode) + "));  // " + mode_name(mode));
    else
      begin_capture(s, mode);
  }
  std::string layer_end_capture(const std::string& s) override {
    if (!plugin_) return end_capture(s);
    const std::string g = name("graph");
    line("cudaGraph_t " + g + ";");
    line("CHECK(layer->end_capture(" + s + ", reinterpret_cast<void**>(&" + g + ")));");
    return g;
  }
  void layer_launch_host_func(const std::string& s, int site) override {
    line(plugin_ ? "CHECK(layer->launch_host_func(" + s + ", host_fn, &tags[" + std::to_string(site) + "]));"
                 : "CHECK(cudaLaunchHostFunc(" + s + ", host_fn, &tags[" + std::to_string(site) + "]));");
  }
  std::string layer_add_host_node(const std::string& g, const std::vector<std::string>& deps, int site) override {
    const std::string n = name("node");
    std::string list;
    for (const auto& d : deps) list += (list.empty() ? "" : ", ") + d;
    const std::string deps_name = n + "_deps";
    line("cudaGraphNode_t " + n + ";");
    if (plugin_) {
      line("void* " + deps_name + "[] = {" + (list.empty() ? std::string("nullptr") : list) + "};");
      line("CHECK(layer->add_host_node(" + g + ", " + deps_name + ", " + std::to_string(deps.size()) + ", host_fn, &tags[" +
           std::to_string(site) + "], reinterpret_cast<void**>(&" + n + ")));");
    } else {
      line("{");
      line("  const cudaGraphNode_t " + deps_name + "[] = {" + (list.empty() ? std::string("nullptr") : list) + "};");
      line("  const cudaHostNodeParams params = params_of(" + std::to_string(site) + ");");
      line("  CHECK(cudaGraphAddHostNode(&" + n + ", " + g + ", " + deps_name + ", " + std::to_string(deps.size()) +
           ", &params));");
      line("}");
    }
    return n;
  }
  void layer_add_stream_callback(const std::string& s, int site) override {
    line(plugin_ ? "CHECK(layer->add_stream_callback(" + s + ", stream_callback, &tags[" + std::to_string(site) + "]));"
                 : "CHECK(cudaStreamAddCallback(" + s + ", stream_callback, &tags[" + std::to_string(site) + "], 0));");
  }
  void layer_graph_set_host_node(const std::string& g, const std::string& n, int site) override {
    if (plugin_) {
      line("CHECK(layer->graph_set_host_node(" + g + ", " + n + ", host_fn, &tags[" + std::to_string(site) + "]));");
      return;
    }
    line("{");
    line("  const cudaHostNodeParams params = params_of(" + std::to_string(site) + ");");
    line("  CHECK(cudaGraphHostNodeSetParams(" + n + ", &params));  // in " + g);
    line("}");
  }
  void layer_exec_set_host_node(const std::string& e, const std::string& n, int site) override {
    if (plugin_) {
      line("CHECK(layer->exec_set_host_node(" + e + ", " + n + ", host_fn, &tags[" + std::to_string(site) + "]));");
      return;
    }
    line("{");
    line("  const cudaHostNodeParams params = params_of(" + std::to_string(site) + ");");
    line("  CHECK(cudaGraphExecHostNodeSetParams(" + e + ", " + n + ", &params));");
    line("}");
  }

  void launches(std::int64_t count) override {
    line("for (int launch = 1; launch <= " + std::to_string(count) + "; ++launch) {");
    ++indent_;
  }
  void end_launches() override {
    --indent_;
    line("}");
  }

  void expect_calls(int site, Expected e, const std::string& when) override {
    const std::string where = indent_ > 1 ? c_string(when + " ") + " + std::to_string(launch)" : c_string(when);
    line("expect_calls(" + std::to_string(site) + ", " + count_expression(e) + ", " + where + ");");
  }
  void expect_order(const std::vector<int>& pattern) override {
    std::string list;
    for (int site : pattern) list += (list.empty() ? "" : ", ") + std::to_string(site);
    line("{");
    line("  const int pattern[] = {" + list + "};");
    line("  std::lock_guard<std::mutex> lock(seen_mutex);");
    line("  for (size_t k = 0; k < order.size(); ++k)");
    line("    if (order[k] != pattern[k % " + std::to_string(pattern.size()) + "])");
    line("      fail(\"call \" + std::to_string(k) + \" was to host function #\" + std::to_string(order[k]) +");
    line("           \"; expected #\" + std::to_string(pattern[k % " + std::to_string(pattern.size()) + "]));");
    line("}");
  }
  void expect_callback_arguments(const std::string& s) override {
    line("for (size_t k = 0; k < callback_args.size(); ++k) {");
    line("  if (callback_args[k].first != static_cast<void*>(" + s + "))");
    line("    fail(\"stream callback \" + std::to_string(k) + \" was handed another stream than it was enqueued on\");");
    line("  if (callback_args[k].second != 0)");
    line("    fail(\"stream callback \" + std::to_string(k) + \" was handed status \" + "
         "std::to_string(callback_args[k].second) + \"; expected 0 (success)\");");
    line("}");
  }

  std::string finish() override {
    if (plugin_) line("if (layer->teardown) layer->teardown();");
    line("std::printf(\"ok: every check held\\n\");");
    line("return 0;");
    indent_ = 0;
    line("}");
    return head_.str() + body_.str();
  }

 private:
  static std::string mode_name(int mode) {
    static const char* names[] = {"cudaStreamCaptureModeGlobal", "cudaStreamCaptureModeThreadLocal",
                                  "cudaStreamCaptureModeRelaxed"};
    return mode >= 0 && mode < 3 ? names[mode] : std::to_string(mode);
  }
  std::string name(const std::string& kind) { return kind + std::to_string(counts_[kind]++); }
  void line(const std::string& text) { body_ << std::string(2 * indent_, ' ') << text << "\n"; }

  bool plugin_;
  std::string options_;
  std::ostringstream head_, body_;
  int indent_ = 0;
  std::map<std::string, int> counts_;
};

}  // namespace

std::unique_ptr<Writer> cpp_writer(bool plugin, const std::string& plugin_options) {
  return std::make_unique<CppWriter>(plugin, plugin_options);
}

}  // namespace hostcb::repro
