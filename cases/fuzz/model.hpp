// The reference interpreter of a fuzz program: which operations are legal in a state, and
// what every host function and kernel must have done after each operation. Also simulates
// the known-bad layers, to say where one of them calls a freed record (a fault).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cases/fuzz/program.hpp"

namespace hostcb::fuzz {

// How a forwarding layer keeps its records, as far as the model can simulate it.
enum class LayerKind {
  correct,            // direct, graph_owned, any adapter: never calls a freed record
  oneshot,            // frees a record after its first call
  frees_on_update,    // frees a node's old record when the node is updated (graph or exec)
  exec_set_in_graph,  // ties an exec's host-node update to the node's graph, not the exec
};
LayerKind layer_kind(const std::string& forward);

// What a graph or an exec holds: one entry per host node (child graphs' contents
// included), in build order.
struct Contents {
  int build = -1;                         // the op that built its topology
  std::vector<int> sites;                 // the site each host node calls now
  std::vector<int> items;                 // the item name of each host node; -1 inside a child
  std::vector<std::pair<int, int>> order; // host node a (index in sites) runs before b
  std::vector<int> kernels;               // the counter cell of each kernel node
  std::vector<std::pair<int, int>> kernel_then_host;  // kernel node k (index in kernels) runs before host h
  std::vector<std::pair<int, int>> host_then_kernel;  // host h runs before kernel node k
  std::set<int> refs;                     // exec_set_in_graph: records tied to it
};

struct Fault {
  int op = -1;  // index in the program's ops
  int site = -1;
  std::string why;
};

class Model {
 public:
  Model(const Program& program, LayerKind layer = LayerKind::correct);

  bool legal(const Op& op) const;
  // Applies a legal op (op_number: its index in the program being run, for faults).
  void apply(const Op& op, int op_number);

  bool graph_live(int g) const { return graphs_.count(g) && live_graphs_.count(g); }
  bool exec_live(int e) const { return execs_.count(e) && live_execs_.count(e); }
  const Contents& graph(int g) const { return graphs_.at(g); }
  const Contents& exec(int e) const { return execs_.at(e); }
  int exec_source(int e) const { return exec_source_.at(e); }
  const std::set<int>& live_graphs() const { return live_graphs_; }
  const std::set<int>& live_execs() const { return live_execs_; }

  // Calls of each site: enqueued by launches so far, and certainly finished (launched on
  // a stream synchronized since).
  std::uint64_t enqueued(int site) const { return enqueued_[site]; }
  std::uint64_t finished(int site) const { return finished_[site]; }
  std::uint64_t kernel_runs(int cell) const { return kernel_runs_[cell]; }
  // Nothing, host node or kernel, launched since the last synchronization of its stream.
  bool idle() const;

  // The first call of a freed record the simulated layer makes, if any.
  const std::optional<Fault>& fault() const { return fault_; }

 private:
  void build(const Op& op);
  void call(const Contents& held, int times, int op_number, int stream);

  const Program& program_;
  LayerKind layer_;
  std::map<int, Contents> graphs_, execs_;
  std::map<int, int> exec_source_;
  std::set<int> updated_execs_;
  std::set<int> live_graphs_, live_execs_;
  std::vector<std::uint64_t> enqueued_, finished_, kernel_runs_;
  std::vector<std::vector<std::uint64_t>> pending_;  // per launch stream, per site
  std::vector<std::uint64_t> pending_kernels_;        // per launch stream: kernel runs not yet synchronized
  std::map<std::pair<int, int>, int> node_records_;  // frees_on_update: (graph, item) -> site
  std::set<int> freed_;
  std::set<int> tied_sites_;  // exec_set_in_graph: exec updates tied to a graph
  std::optional<Fault> fault_;
};

// The program with every op that is not legal where it stands removed (after cutting,
// an op may name a graph whose build was cut): the result is always runnable.
Program legalize(const Program& program);

// The prediction for a whole program: the first fault of the simulated layer.
std::optional<Fault> predict_fault(const Program& program, LayerKind layer);

}  // namespace hostcb::fuzz
