// The reference interpreter of a fuzz program: which operations are legal in a state, and
// what every host function and kernel must have done after each operation. Also simulates
// the known-bad layers, to say where one of them calls a freed record (a fault).
//
// Blocks of threads (a fork, the steps of threads 1..n, a join) are legal only where
// their order does not matter: the fork synchronizes every launch stream; in the block
// each graph, exec and host function (site) belongs to the one thread that first touches
// it, each thread launches, calls back and synchronizes on its own launch streams (stream
// s is thread 1 + s % n's), and no capture is global (it would forbid the other threads'
// calls). So the model applies a block's steps in program order, and what it says of a
// thread's own sites holds at that thread's steps however the threads interleave.
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
  frees_at_end_capture,  // frees, at end_capture, the records it made inside its own capture
  racing_registry,    // two threads registering a record at once get one slot
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

// The first host-function record a block's thread hands the layer (a build's first host
// node, or a host-node update), and whether it comes before the thread first waits.
struct FirstRecord {
  int op = -1;
  int site = -1;
  bool before_waiting = false;  // before the thread's first sync or exec destruction
};
struct BlockRecords {
  int fork = -1;                       // the fork's index in the ops
  std::map<int, FirstRecord> threads;  // thread -> its first record
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
  // Nothing, host node, stream callback or kernel, launched since the last
  // synchronization of its stream.
  bool idle() const;

  // Inside a block (after a fork, before its join): its thread count, and the sites a
  // thread has touched so far (only those, it may check while the others run).
  int block_threads() const { return block_ ? block_->threads : 0; }
  std::vector<int> sites_of_thread(int thread) const;
  // Whether thread `thread` of the current block may use graph or exec `object`.
  bool usable_by(int thread, int object) const;
  // Launch stream `stream` in a block of `threads` threads belongs to thread 1 + stream % threads.
  static int stream_owner(int stream, int threads) { return 1 + stream % threads; }
  // Every block so far, with each thread's first record.
  const std::vector<BlockRecords>& blocks() const { return blocks_; }

  // The first call of a freed record the simulated layer makes, if any.
  const std::optional<Fault>& fault() const { return fault_; }

 private:
  struct Block {
    int threads = 0;
    std::map<int, int> object_owner;  // graph or exec -> thread
    std::map<int, int> site_owner;    // site -> thread
    std::set<int> waited;             // threads that have synchronized or destroyed an exec
  };
  // What an op of a block uses: the graphs and execs it reads or makes, and every site
  // a simulated layer could call, update or free through them: theirs, and those tied to
  // them (refs), which hold every site an exec's update set a node the layer made to, so
  // frees_on_update's frees too.
  struct Claims {
    std::vector<int> objects;
    std::set<int> sites;
  };
  Claims claims_of(const Op& op) const;
  bool legal_in_block(const Op& op) const;
  void claim(const Op& op, int op_number);
  void build(const Op& op);
  void call(const Contents& held, int times, int op_number, int stream);
  void finish(int stream);  // everything launched on `stream` so far has run

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
  std::map<int, std::string> freed_;  // site -> why its record was freed
  std::set<int> tied_sites_;  // exec_set_in_graph: exec updates tied to a graph
  std::optional<Fault> fault_;
  std::optional<Block> block_;
  std::vector<BlockRecords> blocks_;
};

// The program with every op that is not legal where it stands removed (after cutting,
// an op may name a graph whose build was cut), and the steps of a block whose fork was
// cut moved to the program's thread: the result is always runnable.
Program legalize(const Program& program);

// The prediction for a whole program: the first fault of the simulated layer. For
// racing_registry, the first block in which two threads hand the layer a record before
// they first wait, every thread's first record being one that a launch calls later.
std::optional<Fault> predict_fault(const Program& program, LayerKind layer);

}  // namespace hostcb::fuzz
