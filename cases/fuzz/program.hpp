// A fuzz program: a sequence of operations over graphs, execs and streams, as plain data.
// The generator makes one from a seed (generator.hpp), the model says what it must do
// (model.hpp), cases/fuzz.cu runs it on a GPU, and the shrinker cuts it down (shrink.hpp).
//
// Names are stable under cutting: a graph or an exec is named by the index of the
// operation that made it (g4, e7), a host function by its probe site (h3), a kernel by
// its counter cell (k2). Cutting operations or nodes never renames what is left.
//
// Threads: a fork starts a block of 2 to 4 host threads (t1..t4) that run their steps at
// once, each on its own launch streams, and a join ends it; every other step runs on the
// program's own thread (t0). The model (model.hpp) decides what a block's threads may
// share: nothing, so that any interleaving of their steps gives the same counts.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hostcb::fuzz {

enum class OpKind {
  capture,         // a new graph by stream capture, forked over `items`' streams and joined
  nodes,           // a new graph of explicit nodes
  instantiate,     // a new exec of `graph`
  clone,           // a new graph, a copy of `graph`
  graph_set_host,  // `graph`'s host node `node` calls site `site` from now on (through the layer)
  exec_set_host,   // `exec`'s host node `node` calls site `site` from its next launch (through the layer)
  exec_update,     // cudaGraphExecUpdate of `exec` from `graph`, of the same topology: success
  launch,          // `exec` launched `times` times on launch stream `stream`
  sync,            // synchronize launch stream `stream`, or the device when it is -1
  destroy_graph,   // `graph`
  destroy_exec,    // `exec`
  // OpSet::all only:
  stream_callback,  // a stream callback (through the layer) calling site `site` once, on launch stream `stream`
  fork,             // synchronize every launch stream, then start `threads` host threads: a block
  join,             // wait for the block's threads to finish their steps
};

// Which operations a program draws: `graph`, the original set (builds by the harness's
// own capture and by nodes, updates, launches, all on one thread), or `all`, which adds
// captures begun and ended by the layer, stream callbacks and blocks of threads.
enum class OpSet { graph, all };
constexpr int kMaxThreads = 4;  // a block runs 2 to 4 threads

enum class ItemKind { host, kernel, memcpy, empty, child };

// One node of a build. `id`: the site of a host node, the counter cell of a kernel or a
// copy, the graph (its op index) a child node copies.
struct Item {
  ItemKind kind = ItemKind::host;
  int name = 0;  // its place in the generated build (n3): what deps and set operations name
  int id = -1;
  int stream = 0;         // capture: which of the capture's streams enqueues it
  std::vector<int> deps;  // nodes: the names of earlier items it depends on
};

struct Op {
  OpKind kind = OpKind::sync;
  int index = 0;  // its place in the generated program: names what it makes, kept when cut
  int graph = -1;
  int exec = -1;
  int node = -1;  // an item's name in the build the graph comes from
  int site = -1;
  int stream = -1;
  int times = 1;
  int mode = 0;           // capture: 0 global, 1 thread_local, 2 relaxed
  bool by_layer = false;  // capture: begun and ended by the layer (Forwarder::begin_capture)
  int thread = 0;         // who runs it: 0 the program's thread, 1..threads a block's thread
  int threads = 0;        // fork: how many threads the block runs
  std::vector<Item> items;
};

struct Program {
  std::uint64_t seed = 0;
  int size = 0;
  OpSet set = OpSet::graph;
  std::string api = "runtime";  // "runtime" or "driver"
  int streams = 1;              // launch streams
  int sites = 0;                // probe sites the program may use (host functions)
  int cells = 0;                // kernel counter cells it may use
  std::vector<Op> ops;
};

const char* op_name(OpKind kind);
const char* capture_mode_name(int mode);  // "global", "thread_local", "relaxed"
const char* op_set_name(OpSet set);       // "graph", "all": the fuzz family's `ops` axis
OpSet parse_op_set(const std::string& name);  // throws std::invalid_argument

// The program as numbered, readable steps: a header line, then one line per operation.
std::string to_text(const Program& program);
std::string op_text(const Op& op, int index);

}  // namespace hostcb::fuzz
