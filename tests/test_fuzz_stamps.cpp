// The kernels around a host function (cases/fuzz/stamps.hpp): which kernels the model says
// run before and after each host node, and the bounds a host call's snapshot of the
// counters must keep, round after round.
#include "catch_compat.hpp"
#include "cases/fuzz/model.hpp"
#include "cases/fuzz/stamps.hpp"

using namespace hostcb::fuzz;

namespace {

using Pairs = std::vector<std::pair<int, int>>;

Item item(ItemKind kind, int name, int id, std::vector<int> deps = {}, int stream = 0) {
  Item it;
  it.kind = kind;
  it.name = name;
  it.id = id;
  it.deps = std::move(deps);
  it.stream = stream;
  return it;
}

Program program_of(std::vector<Op> ops) {
  Program p;
  p.streams = 2;
  p.sites = 4;
  p.cells = 3;
  for (std::size_t i = 0; i < ops.size(); ++i) ops[i].index = static_cast<int>(i);
  p.ops = std::move(ops);
  return p;
}

Op op(OpKind kind, std::vector<Item> items = {}) {
  Op o;
  o.kind = kind;
  o.items = std::move(items);
  return o;
}

Model run_legal(const Program& program) {
  Model model(program);
  for (std::size_t i = 0; i < program.ops.size(); ++i) {
    REQUIRE(model.legal(program.ops[i]));
    model.apply(program.ops[i], static_cast<int>(i));
  }
  return model;
}

StampSnapshot seen(int site, std::vector<std::uint64_t> cells) { return StampSnapshot{site, std::move(cells)}; }

}  // namespace

TEST_CASE("fuzz stamps: the kernels before and after each host node", "[fuzz]") {
  // k0 -> h0 -> k1, and h1 beside them all
  const Program p = program_of({op(OpKind::nodes, {item(ItemKind::kernel, 0, 0), item(ItemKind::host, 1, 0, {0}),
                                                   item(ItemKind::kernel, 2, 1, {1}), item(ItemKind::host, 3, 1)})});
  const Model model_g = run_legal(p);
  const Contents& g = model_g.graph(0);
  CHECK(g.kernels == std::vector<int>{0, 1});
  CHECK(g.kernel_then_host == Pairs{{0, 0}});
  CHECK(g.host_then_kernel == Pairs{{0, 1}});

  SECTION("a capture orders what one stream enqueues, not across streams") {
    const Program c = program_of({op(OpKind::capture,
                                     {item(ItemKind::kernel, 0, 0, {}, 0), item(ItemKind::host, 1, 0, {}, 1),
                                      item(ItemKind::host, 2, 1, {}, 0), item(ItemKind::kernel, 3, 1, {}, 1)})});
    const Model model_cg = run_legal(c);
    const Contents& cg = model_cg.graph(0);
    CHECK(cg.kernel_then_host == Pairs{{0, 1}});  // k0 then h1 on stream 0
    CHECK(cg.host_then_kernel == Pairs{{0, 1}});  // h0 then k1 on stream 1
  }
  SECTION("a child graph's kernels keep their order inside it and take the child node's outside") {
    Op parent = op(OpKind::nodes, {item(ItemKind::host, 0, 2), item(ItemKind::child, 1, 0, {0})});
    const Program with_child = program_of({op(OpKind::nodes, {item(ItemKind::kernel, 0, 0),
                                                              item(ItemKind::host, 1, 0, {0}),
                                                              item(ItemKind::kernel, 2, 1, {1})}),
                                           parent});
    const Model model_pg = run_legal(with_child);
    const Contents& pg = model_pg.graph(1);
    CHECK(pg.sites == std::vector<int>{2, 0});
    // inside: k0 -> h0 (now host 1) -> k1; outside: h2 (host 0) before both kernels
    CHECK(pg.kernel_then_host == Pairs{{0, 1}});
    CHECK(pg.host_then_kernel == Pairs{{1, 1}, {0, 0}, {0, 1}});
  }
}

TEST_CASE("fuzz stamps: each host call's counters lie between what the edges and rounds allow", "[fuzz]") {
  const Program p = program_of({op(OpKind::nodes, {item(ItemKind::kernel, 0, 0), item(ItemKind::host, 1, 0, {0}),
                                                   item(ItemKind::kernel, 2, 1, {1}), item(ItemKind::host, 3, 1)})});
  const Model model_g = run_legal(p);
  const Contents& g = model_g.graph(0);
  const std::vector<std::uint64_t> base{5, 3, 0};

  CHECK_FALSE(check_stamps(g, 0, base, seen(0, {6, 3, 0})));
  CHECK_FALSE(check_stamps(g, 1, base, seen(0, {7, 4, 0})));
  CHECK_FALSE(check_stamps(g, 0, base, seen(1, {5, 4, 0})));  // h1 is unordered: anything in the round
  CHECK_FALSE(check_stamps(g, 0, base, seen(1, {6, 3, 0})));

  auto early = check_stamps(g, 0, base, seen(0, {5, 3, 0}));  // before k0 ran
  REQUIRE(early);
  CHECK(*early == "h0 saw kernel k0 at 5; expected 6 (1 of its nodes run before h0)");
  auto late = check_stamps(g, 0, base, seen(0, {6, 4, 0}));  // after k1 ran
  REQUIRE(late);
  CHECK(*late == "h0 saw kernel k1 at 4; expected 3 (1 of its nodes run after h0)");
  auto next_round = check_stamps(g, 0, base, seen(1, {7, 4, 0}));  // called in the next launch
  REQUIRE(next_round);
  CHECK(*next_round == "h1 saw kernel k0 at 7; expected 5 to 6 (it runs 1 time(s) a launch)");
  auto stray = check_stamps(g, 0, base, seen(0, {6, 3, 1}));
  REQUIRE(stray);
  CHECK(*stray == "h0 saw kernel k2 at 1; expected 0 (no node of this exec counts into it)");
  auto foreign = check_stamps(g, 0, base, seen(3, {6, 3, 0}));
  REQUIRE(foreign);
  CHECK(*foreign == "h3 ran, but the exec holds no such host node");
}

TEST_CASE("fuzz stamps: a cell counted by two nodes of one exec", "[fuzz]") {
  // a graph of one kernel, k0, twice a child of another: k0 runs twice a launch
  Op parent = op(OpKind::nodes, {item(ItemKind::child, 0, 0), item(ItemKind::host, 1, 0, {0}),
                                 item(ItemKind::child, 2, 0, {1})});
  const Program p = program_of({op(OpKind::nodes, {item(ItemKind::kernel, 0, 0)}), parent});
  const Model model_g = run_legal(p);
  const Contents& g = model_g.graph(1);
  CHECK(g.kernels == std::vector<int>{0, 0});
  const std::vector<std::uint64_t> base{0, 0, 0};
  CHECK_FALSE(check_stamps(g, 1, base, seen(0, {3, 0, 0})));  // round 2: 2 before it, 1 of this round
  CHECK(check_stamps(g, 1, base, seen(0, {2, 0, 0})));
  CHECK(check_stamps(g, 1, base, seen(0, {4, 0, 0})));
}

TEST_CASE("fuzz model: a launch of kernels alone keeps the device busy until synchronized", "[fuzz]") {
  Op launch = op(OpKind::launch);
  launch.exec = 1;
  launch.stream = 0;
  Op instantiate = op(OpKind::instantiate);
  instantiate.graph = 0;
  Op sync = op(OpKind::sync);
  sync.stream = 0;
  Program p = program_of({op(OpKind::nodes, {item(ItemKind::kernel, 0, 0)}), instantiate, launch});
  CHECK_FALSE(run_legal(p).idle());
  p.ops.push_back(sync);
  p.ops.back().index = 3;
  CHECK(run_legal(p).idle());
}
