// The fuzz reference model on small hand-written programs: what each host function must
// have been called after each step, which orders the graph imposes, and where each
// known-bad layer calls a freed record.
#include "catch_compat.hpp"
#include "cases/fuzz/model.hpp"

using namespace hostcb::fuzz;

namespace {

struct Builder {
  Program program;
  int thread = 0;  // who runs the ops added from here
  Builder() {
    program.streams = 2;
    program.sites = 8;
    program.cells = 4;
  }
  Op& add(OpKind kind) {
    Op op;
    op.kind = kind;
    op.index = static_cast<int>(program.ops.size());
    op.thread = thread;
    program.ops.push_back(op);
    return program.ops.back();
  }
  Builder& on(int t) {
    thread = t;
    return *this;
  }
  void fork(int threads) {
    thread = 0;
    add(OpKind::fork).threads = threads;
  }
  void join() {
    thread = 0;
    add(OpKind::join);
  }
  void callback(int site, int stream) {
    Op& op = add(OpKind::stream_callback);
    op.site = site;
    op.stream = stream;
  }
  // A capture of host h(site) for each site, on capture streams 0, 1, 0, 1, ...
  int capture(std::vector<int> sites, bool by_layer, int mode = 0) {
    Op& op = add(OpKind::capture);
    op.by_layer = by_layer;
    op.mode = mode;
    for (std::size_t i = 0; i < sites.size(); ++i) {
      Item item;
      item.name = static_cast<int>(i);
      item.id = sites[i];
      item.stream = static_cast<int>(i % 2);
      op.items.push_back(item);
    }
    return op.index;
  }
  // A graph of explicit nodes: host h(site) for each site, chained when `chain`.
  int nodes(std::vector<int> sites, bool chain = true) {
    Op& op = add(OpKind::nodes);
    for (std::size_t i = 0; i < sites.size(); ++i) {
      Item item;
      item.name = static_cast<int>(i);
      item.id = sites[i];
      if (chain && i > 0) item.deps = {static_cast<int>(i) - 1};
      op.items.push_back(item);
    }
    return op.index;
  }
  int instantiate(int graph) { Op& op = add(OpKind::instantiate); op.graph = graph; return op.index; }
  int clone(int graph) { Op& op = add(OpKind::clone); op.graph = graph; return op.index; }
  void launch(int exec, int times, int stream = 0) {
    Op& op = add(OpKind::launch);
    op.exec = exec;
    op.times = times;
    op.stream = stream;
  }
  void sync(int stream = -1) { add(OpKind::sync).stream = stream; }
  void graph_set(int graph, int node, int site) {
    Op& op = add(OpKind::graph_set_host);
    op.graph = graph;
    op.node = node;
    op.site = site;
  }
  void exec_set(int exec, int node, int site) {
    Op& op = add(OpKind::exec_set_host);
    op.exec = exec;
    op.node = node;
    op.site = site;
  }
  void destroy_graph(int graph) { add(OpKind::destroy_graph).graph = graph; }
  void destroy_exec(int exec) { add(OpKind::destroy_exec).exec = exec; }
};

// Whether `op`, appended to the program, would be legal where it stands.
bool legal_next(const Program& program, const Op& op) {
  Model model(program);
  for (std::size_t i = 0; i < program.ops.size(); ++i) model.apply(program.ops[i], static_cast<int>(i));
  return model.legal(op);
}

Model run_all(const Program& program, LayerKind layer = LayerKind::correct) {
  Model model(program, layer);
  for (std::size_t i = 0; i < program.ops.size(); ++i) {
    REQUIRE(model.legal(program.ops[i]));
    model.apply(program.ops[i], static_cast<int>(i));
  }
  return model;
}

}  // namespace

TEST_CASE("fuzz model: each host node once per launch of each exec, updates from the next launch", "[fuzz]") {
  Builder b;
  int g = b.nodes({0, 1});
  int e1 = b.instantiate(g);
  int e2 = b.instantiate(g);
  b.launch(e1, 3);
  b.launch(e2, 1, 1);
  b.graph_set(g, 0, 2);   // the graph changes, e1 and e2 keep h0
  int e3 = b.instantiate(g);  // e3 calls h2
  b.exec_set(e1, 1, 3);  // e1 calls h3 instead of h1 from its next launch
  b.launch(e1, 2);
  b.launch(e3, 1);
  Model m = run_all(b.program);
  CHECK(m.enqueued(0) == 3 + 1 + 2);
  CHECK(m.enqueued(1) == 3 + 1 + 1);
  CHECK(m.enqueued(2) == 1);
  CHECK(m.enqueued(3) == 2);
  CHECK(m.exec(e3).order == std::vector<std::pair<int, int>>{{0, 1}});
  CHECK_FALSE(m.fault());
}

TEST_CASE("fuzz model: what a synchronized stream has certainly finished", "[fuzz]") {
  Builder b;
  int e = b.instantiate(b.nodes({0}));
  b.launch(e, 2, 0);
  b.launch(e, 3, 1);
  b.sync(1);
  Model m = run_all(b.program);
  CHECK(m.finished(0) == 3);
  CHECK(m.enqueued(0) == 5);
  CHECK_FALSE(m.idle());
  Model all = run_all([&] { b.sync(-1); return b.program; }());
  CHECK(all.finished(0) == 5);
  CHECK(all.idle());
}

TEST_CASE("fuzz model: child graphs, clones and unordered nodes", "[fuzz]") {
  Builder b;
  int child = b.nodes({0, 1});
  Op& parent = b.add(OpKind::nodes);
  Item host;
  host.name = 0;
  host.id = 2;
  Item nested;
  nested.kind = ItemKind::child;
  nested.name = 1;
  nested.id = child;
  nested.deps = {0};
  parent.items = {host, nested};
  int parent_graph = parent.index;
  int copy = b.clone(parent_graph);
  b.launch(b.instantiate(copy), 2);
  Model m = run_all(b.program);
  CHECK(m.enqueued(0) == 2);
  CHECK(m.enqueued(2) == 2);
  // h2 before both of the child's; inside the child h0 before h1
  CHECK(m.graph(copy).order == std::vector<std::pair<int, int>>{{1, 2}, {0, 1}, {0, 2}});
  CHECK(m.graph(copy).items == std::vector<int>{0, -1, -1});  // the child's nodes cannot be updated
  Builder loose;
  int g = loose.nodes({0, 1, 2}, false);
  CHECK(run_all(loose.program).graph(g).order.empty());
}

TEST_CASE("fuzz model: illegal operations are refused and legalize drops them", "[fuzz]") {
  Builder b;
  int g = b.nodes({0});
  b.destroy_graph(g);
  b.instantiate(g);  // of a destroyed graph
  Model m(b.program);
  m.apply(b.program.ops[0], 0);
  m.apply(b.program.ops[1], 1);
  CHECK_FALSE(m.legal(b.program.ops[2]));
  CHECK(legalize(b.program).ops.size() == 2);
}

TEST_CASE("fuzz model: where each known-bad layer calls a freed record", "[fuzz]") {
  SECTION("oneshot: the second call of any record") {
    Builder b;
    int e = b.instantiate(b.nodes({0}));
    b.launch(e, 1);
    CHECK_FALSE(predict_fault(b.program, LayerKind::oneshot));
    b.launch(e, 1);
    auto fault = predict_fault(b.program, LayerKind::oneshot);
    REQUIRE(fault);
    CHECK(fault->op == 3);
    CHECK(fault->site == 0);
  }
  SECTION("frees_on_update: an older exec calls the node's replaced record") {
    Builder b;
    int g = b.nodes({0});
    int e = b.instantiate(g);
    b.graph_set(g, 0, 1);
    CHECK_FALSE(predict_fault(b.program, LayerKind::frees_on_update));
    b.launch(e, 1);
    CHECK(predict_fault(b.program, LayerKind::frees_on_update)->op == 3);
    CHECK_FALSE(predict_fault(b.program, LayerKind::correct));
    CHECK_FALSE(predict_fault(b.program, LayerKind::exec_set_in_graph));
  }
  SECTION("exec_set_in_graph: an exec's update freed with the graph") {
    Builder b;
    int g = b.nodes({0});
    int e = b.instantiate(g);
    b.exec_set(e, 0, 1);
    b.launch(e, 1);
    CHECK_FALSE(predict_fault(b.program, LayerKind::exec_set_in_graph));
    b.destroy_graph(g);
    b.launch(e, 1);
    CHECK(predict_fault(b.program, LayerKind::exec_set_in_graph)->op == 5);
    CHECK_FALSE(predict_fault(b.program, LayerKind::frees_on_update));  // nothing else calls h0
  }
}

TEST_CASE("fuzz model: a stream callback is called once, when its stream gets there", "[fuzz]") {
  Builder b;
  b.callback(0, 1);
  Model m = run_all(b.program);
  CHECK(m.enqueued(0) == 1);
  CHECK(m.finished(0) == 0);
  CHECK_FALSE(m.idle());  // a launch now would not run alone
  b.sync(1);
  CHECK(run_all(b.program).finished(0) == 1);
  CHECK(run_all(b.program).idle());
  Op outside = b.program.ops[0];
  outside.stream = 2;  // the program has launch streams 0 and 1
  CHECK_FALSE(legal_next(b.program, outside));
}

TEST_CASE("fuzz model: the layer's own capture is a capture, and frees_at_end_capture frees what it holds", "[fuzz]") {
  Builder b;
  int g = b.capture({0, 1}, /*by_layer=*/true, /*mode=*/2);
  int e = b.instantiate(g);
  int harness = b.capture({2}, /*by_layer=*/false);
  int e2 = b.instantiate(harness);
  b.launch(e2, 2);
  CHECK_FALSE(predict_fault(b.program, LayerKind::frees_at_end_capture));  // a capture the layer did not begin
  b.launch(e, 1);
  Model m = run_all(b.program);
  CHECK(m.enqueued(0) == 1);
  CHECK(m.graph(g).order == std::vector<std::pair<int, int>>{});  // h0 on stream 0, h1 on stream 1: unordered
  auto fault = predict_fault(b.program, LayerKind::frees_at_end_capture);
  REQUIRE(fault);
  CHECK(fault->op == 5);
  CHECK(fault->why.find("capture ended") != std::string::npos);
  for (LayerKind other : {LayerKind::correct, LayerKind::frees_on_update, LayerKind::exec_set_in_graph,
                          LayerKind::racing_registry})
    CHECK_FALSE(predict_fault(b.program, other));
}

TEST_CASE("fuzz model: a fork synchronizes every stream, and a block's threads share nothing", "[fuzz]") {
  Builder b;
  b.program.streams = 4;
  int g = b.nodes({0});
  int e = b.instantiate(g);
  b.launch(e, 3, 3);
  b.fork(2);
  Model forked = run_all(b.program);
  CHECK(forked.finished(0) == 3);
  CHECK(forked.idle());
  CHECK(forked.block_threads() == 2);
  // stream s belongs to thread 1 + s % 2: streams 0 and 2 to t1, 1 and 3 to t2
  b.on(2).launch(e, 2, 3);
  CHECK(run_all(b.program).sites_of_thread(2) == std::vector<int>{0});
  CHECK(run_all(b.program).sites_of_thread(1).empty());
  Op other_thread = b.program.ops.back();
  other_thread.thread = 1;  // t2's exec, and t2's stream
  CHECK_FALSE(legal_next(b.program, other_thread));
  other_thread.stream = 0;  // t1's stream, still t2's exec
  CHECK_FALSE(legal_next(b.program, other_thread));
  Op clone;
  clone.kind = OpKind::clone;
  clone.index = 50;
  clone.graph = g;  // its host function h0 is t2's: t1 may not touch it
  clone.thread = 1;
  CHECK_FALSE(legal_next(b.program, clone));
  clone.thread = 2;
  CHECK(legal_next(b.program, clone));
  Op global;  // a global capture forbids the other threads' calls: never in a block
  global.kind = OpKind::capture;
  global.index = 50;
  global.thread = 1;
  global.items = {Item{ItemKind::kernel, 0, 0, 0, {}}};
  CHECK_FALSE(legal_next(b.program, global));
  global.mode = 1;
  CHECK(legal_next(b.program, global));
  Op device_sync;
  device_sync.kind = OpKind::sync;
  device_sync.thread = 1;
  device_sync.stream = -1;  // a block's thread waits on its own streams, one at a time
  CHECK_FALSE(legal_next(b.program, device_sync));
  Op own_stream = device_sync;
  own_stream.stream = 2;  // t1's: 2 % 2 == 0
  CHECK(legal_next(b.program, own_stream));
  own_stream.stream = 1;  // t2's
  CHECK_FALSE(legal_next(b.program, own_stream));
  Op callback;
  callback.kind = OpKind::stream_callback;
  callback.thread = 1;
  callback.site = 7;
  callback.stream = 1;
  CHECK_FALSE(legal_next(b.program, callback));
  callback.stream = 0;
  CHECK(legal_next(b.program, callback));
  Op main_thread = device_sync;
  main_thread.thread = 0;  // nothing of thread 0 inside a block, and no fork in it
  CHECK_FALSE(legal_next(b.program, main_thread));
  Op fork;
  fork.kind = OpKind::fork;
  fork.threads = 2;
  CHECK_FALSE(legal_next(b.program, fork));
  b.join();
  CHECK(legal_next(b.program, fork));
  CHECK(legal_next(b.program, main_thread));
  CHECK_FALSE(legal_next(b.program, device_sync));  // a block's thread outside a block
  fork.threads = 5;
  CHECK_FALSE(legal_next(b.program, fork));  // 2 to 4 threads, each with a stream
}

TEST_CASE("fuzz model: a block's thread keeps what a layer could free through another's objects", "[fuzz]") {
  Builder b;
  b.program.streams = 2;
  int g = b.nodes({0});
  int e = b.instantiate(g);
  b.exec_set(e, 0, 1);  // e calls h1; frees_on_update frees h1 when g's node is next updated
  b.fork(2);
  b.on(2).launch(e, 1, 1);  // t2 holds h1
  Op set_graph;
  set_graph.kind = OpKind::graph_set_host;
  set_graph.thread = 1;
  set_graph.graph = g;  // g calls h0, not h1, but h1 is tied to it: its node was set to h1
  set_graph.node = 0;
  set_graph.site = 2;
  CHECK_FALSE(legal_next(b.program, set_graph));
  Builder tied;  // exec_set_in_graph: e's h1 is freed with g
  tied.program.streams = 2;
  int g2 = tied.nodes({0});
  int e2 = tied.instantiate(g2);
  tied.exec_set(e2, 0, 1);
  tied.fork(2);
  tied.on(1).launch(e2, 1, 0);
  Op destroy;
  destroy.kind = OpKind::destroy_graph;
  destroy.thread = 2;
  destroy.graph = g2;
  CHECK_FALSE(legal_next(tied.program, destroy));
}

TEST_CASE("fuzz model: the counts of a block in program order hold for each thread's own sites", "[fuzz]") {
  Builder b;
  b.program.streams = 2;
  b.fork(2);
  int g1 = b.on(1).nodes({0});
  int g2 = b.on(2).nodes({1, 2});
  int e1 = b.on(1).instantiate(g1);
  int e2 = b.on(2).instantiate(g2);
  b.on(2).launch(e2, 3, 1);
  b.on(1).launch(e1, 2, 0);
  b.on(1).sync(0);
  Model m = run_all(b.program);
  CHECK(m.sites_of_thread(1) == std::vector<int>{0});
  CHECK(m.sites_of_thread(2) == std::vector<int>{1, 2});
  CHECK(m.finished(0) == 2);  // t1's sync: its own launches are done
  CHECK(m.finished(1) == 0);  // t2's are not, whatever t1 did
  CHECK(m.enqueued(1) == 3);
  b.join();
  CHECK(run_all(b.program).block_threads() == 0);
}

TEST_CASE("fuzz model: racing_registry loses a record when two threads hand it one at once", "[fuzz]") {
  // t1 and t2 each build a graph first thing after the fork; both are launched later
  auto program = [](bool t2_waits_first, bool launch_t2s) {
    Builder b;
    b.program.streams = 2;
    b.fork(2);
    if (t2_waits_first) b.on(2).sync(1);
    int g1 = b.on(1).nodes({0});
    int g2 = b.on(2).nodes({1});
    b.join();
    b.launch(b.instantiate(g1), 1);
    int e2 = b.instantiate(g2);
    if (launch_t2s) b.launch(e2, 1);
    return b.program;
  };
  auto fault = predict_fault(program(false, true), LayerKind::racing_registry);
  REQUIRE(fault);
  CHECK(fault->op == 2);
  CHECK(fault->why.find("h0 (t1) and h1 (t2)") != std::string::npos);
  CHECK_FALSE(predict_fault(program(false, true), LayerKind::correct));
  CHECK_FALSE(predict_fault(program(false, true), LayerKind::oneshot));  // each record called once
  // t2 waits before its record: it may come after t1's window has closed
  CHECK_FALSE(predict_fault(program(true, true), LayerKind::racing_registry));
  // t2's record is never called: losing it, or t1's to it, may go unseen
  CHECK_FALSE(predict_fault(program(false, false), LayerKind::racing_registry));
  Builder alone;  // one thread never races
  alone.nodes({0});
  alone.nodes({1});
  alone.launch(alone.instantiate(0), 1);
  alone.launch(alone.instantiate(1), 1);
  CHECK_FALSE(predict_fault(alone.program, LayerKind::racing_registry));
}
