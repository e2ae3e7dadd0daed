// The fuzz reference model on small hand-written programs: what each host function must
// have been called after each step, which orders the graph imposes, and where each
// known-bad layer calls a freed record.
#include "catch_compat.hpp"
#include "cases/fuzz/model.hpp"

using namespace hostcb::fuzz;

namespace {

struct Builder {
  Program program;
  Builder() {
    program.streams = 2;
    program.sites = 8;
    program.cells = 4;
  }
  Op& add(OpKind kind) {
    Op op;
    op.kind = kind;
    op.index = static_cast<int>(program.ops.size());
    program.ops.push_back(op);
    return program.ops.back();
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
};

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
