// A reproducer as it is written: the steps of one scenario (family_steps.cpp) told to a
// Writer, which writes them as a standalone program in its language (python_writer.cpp,
// cpp_writer.cpp). The steps name CUDA's own calls (streams, captures, graphs, launches)
// and the layer's operations, with handles as the program's variable names; the checks
// come after a synchronize, never inside a callback, as hostcb's do.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hostcb::repro {

// What a check expects a count to be: `per_launch` times the current launch number (of
// the innermost launches() loop; 0 outside one) plus `fixed`.
struct Expected {
  std::int64_t per_launch = 0;
  std::int64_t fixed = 0;
};

// `expected` as Python and C++ both write it: "launch", "2 * launch + 4", "3".
std::string count_expression(Expected expected);

// What the program is for: printed at its top.
struct Header {
  std::string id;          // the scenario id
  std::string summary;     // the family's summary
  std::string layer;       // the forward axis value
  std::string command;     // how to run the program
};

class Writer {
 public:
  virtual ~Writer() = default;
  // `sites`: the host functions the program hands the layer, host function #k with a
  // userData of its own; a call with any other userData is a failure.
  virtual void begin(const Header& header, int sites) = 0;

  virtual std::string stream() = 0;
  virtual void begin_capture(const std::string& stream, int mode) = 0;  // CUDA's, mode 0 global 1 thread-local 2 relaxed
  virtual std::string end_capture(const std::string& stream) = 0;
  virtual std::string create_graph() = 0;
  virtual std::string clone(const std::string& graph) = 0;
  // A child-graph node in `parent` holding (a copy of) `child`.
  virtual void add_child_graph_node(const std::string& parent, const std::string& child) = 0;
  // The graph's host nodes, in the order cudaGraphGetNodes lists them; `expected` of them.
  virtual std::string host_nodes(const std::string& graph, int expected) = 0;
  virtual std::string node(const std::string& nodes, int index) = 0;
  virtual std::string instantiate(const std::string& graph) = 0;
  virtual void upload(const std::string& exec, const std::string& stream) = 0;
  virtual void launch(const std::string& exec, const std::string& stream) = 0;
  virtual void synchronize(const std::string& stream) = 0;
  virtual void destroy_exec(const std::string& exec) = 0;
  virtual void destroy_graph(const std::string& graph) = 0;

  // The layer's operations, with host function #site.
  virtual void layer_begin_capture(const std::string& stream, int mode) = 0;
  virtual std::string layer_end_capture(const std::string& stream) = 0;
  virtual void layer_launch_host_func(const std::string& stream, int site) = 0;
  virtual std::string layer_add_host_node(const std::string& graph, const std::vector<std::string>& deps, int site) = 0;
  virtual void layer_add_stream_callback(const std::string& stream, int site) = 0;
  virtual void layer_graph_set_host_node(const std::string& graph, const std::string& node, int site) = 0;
  virtual void layer_exec_set_host_node(const std::string& exec, const std::string& node, int site) = 0;

  // for launch in 1..count: the launch number Expected::per_launch counts. Not nested.
  virtual void launches(std::int64_t count) = 0;
  virtual void end_launches() = 0;

  // Host function #site has been called `expected` times; `when` says after what.
  virtual void expect_calls(int site, Expected expected, const std::string& when) = 0;
  // Every call so far, in order, was sites `pattern` repeated.
  virtual void expect_order(const std::vector<int>& pattern) = 0;
  // Each stream callback so far was handed `stream` and a success status.
  virtual void expect_callback_arguments(const std::string& stream) = 0;

  // The whole program.
  virtual std::string finish() = 0;
};

// Python: the layer is a layer module (docs/adapters.md), its source embedded as hostcb
// read it; CUDA's own calls go through cuda.bindings.runtime.
std::unique_ptr<Writer> python_writer(const std::string& module_source);
// C++: the layer is CUDA's runtime API itself (`direct`), or with `plugin` a plugin of the
// adapter ABI (hostcb/adapter.h) linked in, initialized with `plugin_options`.
std::unique_ptr<Writer> cpp_writer(bool plugin, const std::string& plugin_options);

}  // namespace hostcb::repro
