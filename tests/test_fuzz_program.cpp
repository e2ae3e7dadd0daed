// The fuzz program generator: one seed, one program, on every platform; only legal
// operations; every kind of operation and node appears somewhere; ops=all programs
// capture through the layer in every mode with side streams, add stream callbacks and
// run blocks of 2 to 4 threads.
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "catch_compat.hpp"
#include "cases/fuzz/generator.hpp"
#include "cases/fuzz_layer_needs.hpp"
#include "cases/fuzz/model.hpp"
#include "cases/fuzz/rng.hpp"
#include "reports/atomic_file.hpp"

using namespace hostcb::fuzz;

namespace {
std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}


TEST_CASE("fuzz rng is splitmix64 to the bit", "[fuzz]") {
  Rng rng(0);  // the published first outputs of splitmix64 from state 0
  CHECK(rng.next() == 0xe220a8397b1dcdafull);
  CHECK(rng.next() == 0x6e789e6aa1b965f4ull);
}

// The program of (seed, size, set) against its approved text in tests/approved/.
void check_approved(std::uint64_t seed, int size, OpSet set, const std::string& name) {
  const std::string received = to_text(generate(seed, size, set));
  const std::string approved_path = std::string(HOSTCB_APPROVED_DIR) + "/" + name + ".approved.txt";
  if (received != read_text(approved_path)) {
    const std::string received_path = std::string(HOSTCB_TEST_TMP) + "/" + name + ".received.txt";
    hostcb::write_file_atomically(received_path, received);
    FAIL("the program of " + name + " changed: every fuzz id of its set now names another program; compare with:\n  diff " +
         approved_path + " " + received_path);
  }
  CHECK(to_text(generate(seed, size, set)) == received);  // and again, in the same process
}

// Every op of every program of `set` over many seeds and sizes, each program checked legal as generated.
template <class Visit>
void for_each_generated(OpSet set, Visit&& visit) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed)
    for (int size : {1, 5, 40, 120}) {
      Program program = generate(seed, size, set);
      REQUIRE(static_cast<int>(program.ops.size()) == size);
      INFO(to_text(program));
      // legalize drops whatever is not legal where it stands, and moves no step: nothing, here
      REQUIRE(to_text(legalize(program)) == to_text(program));
      visit(program);
    }
}
}  // namespace

TEST_CASE("fuzz seed 17 size 40 is the approved program", "[fuzz]") {
  check_approved(17, 40, OpSet::graph, "fuzz_seed17_size40");  // the ids published before ops=all: unchanged
}

TEST_CASE("fuzz ops=all seed 17 size 40 is the approved program, with every new operation", "[fuzz]") {
  check_approved(17, 40, OpSet::all, "fuzz_all_seed17_size40");
  const Program program = generate(17, 40, OpSet::all);
  bool by_layer = false, callback = false, fork = false;
  for (const auto& op : program.ops) {
    by_layer = by_layer || op.by_layer;
    callback = callback || op.kind == OpKind::stream_callback;
    fork = fork || op.kind == OpKind::fork;
  }
  CHECK((by_layer && callback && fork));
}

TEST_CASE("fuzz programs are legal as generated, over many seeds and sizes", "[fuzz]") {
  std::set<OpKind> ops;
  std::set<ItemKind> items;
  for_each_generated(OpSet::graph, [&](const Program& program) {
    for (const auto& op : program.ops) {
      ops.insert(op.kind);
      // A host-node update names one of the graph's own host nodes, never a child
      // graph's site (-1): the GPU run's seed 14 did, and the executor had no such node.
      if (op.kind == OpKind::graph_set_host || op.kind == OpKind::exec_set_host) REQUIRE(op.node >= 0);
      REQUIRE((op.thread == 0 && !op.by_layer));  // graph programs: one thread, the harness's captures
      for (const auto& item : op.items) items.insert(item.kind);
    }
  });
  CHECK(ops.size() == 11);
  CHECK(items.size() == 5);
}

TEST_CASE("fuzz ops=all programs are legal and reach the layer every way, from 2 to 4 threads", "[fuzz]") {
  std::set<OpKind> ops, in_blocks;
  std::set<std::pair<int, int>> layer_captures;  // (mode, streams), outside and inside blocks
  std::set<int> fork_threads;
  std::set<std::pair<int, bool>> captures_in_blocks;  // (mode, by the layer)
  for_each_generated(OpSet::all, [&](const Program& program) {
    int threads = 0;  // of the open block
    for (const auto& op : program.ops) {
      ops.insert(op.kind);
      if (op.kind == OpKind::fork) fork_threads.insert(threads = op.threads);
      if (op.kind == OpKind::join) threads = 0;
      if (op.thread > 0) in_blocks.insert(op.kind);
      REQUIRE(op.thread <= threads);
      int streams = 1;
      for (const auto& item : op.items) streams = std::max(streams, item.stream + 1);
      if (op.by_layer) layer_captures.insert({op.mode, streams});
      if (op.kind == OpKind::capture && op.thread > 0) captures_in_blocks.insert({op.mode, op.by_layer});
    }
  });
  CHECK(ops.size() == 14);        // every kind
  CHECK(in_blocks.size() == 12);  // every kind but fork and join, in blocks too
  CHECK(fork_threads == std::set<int>{2, 3, 4});
  for (int mode : {0, 1, 2})  // the layer's captures in every mode, on 1 to 3 streams (side streams forked and joined)
    for (int streams : {1, 2, 3}) CHECK(layer_captures.count({mode, streams}));
  // in a block no capture is global (it would forbid the other threads' calls)
  CHECK(captures_in_blocks == std::set<std::pair<int, bool>>{{1, false}, {1, true}, {2, false}, {2, true}});
}

TEST_CASE("fuzz programs need the layer's operations where they use them, its own capture apart", "[fuzz]") {
  using hostcb::LayerOp;
  Program program = generate(17, 40, OpSet::graph);
  hostcb::cases::LayerNeeds graph = hostcb::cases::layer_needs(program);
  CHECK(graph.in_own_capture.empty());
  CHECK(graph.elsewhere == std::vector<LayerOp>{LayerOp::launch_host_func, LayerOp::exec_set_host_node,
                                                LayerOp::add_host_node, LayerOp::graph_set_host_node});
  Program all;
  all.streams = 1;
  Op own;  // the layer's capture of one host function
  own.kind = OpKind::capture;
  own.by_layer = true;
  own.items = {Item{ItemKind::host, 0, 0, 0, {}}};
  Op callback;
  callback.kind = OpKind::stream_callback;
  callback.site = 1;
  callback.stream = 0;
  all.ops = {own, callback};
  hostcb::cases::LayerNeeds needs = hostcb::cases::layer_needs(all);
  CHECK(needs.in_own_capture == std::vector<LayerOp>{LayerOp::capture, LayerOp::launch_host_func});
  CHECK(needs.elsewhere == std::vector<LayerOp>{LayerOp::add_stream_callback});
}
