// Shrinking: a planted failure (the model's oneshot fault) ends at the known minimal
// program; cuts are one word, read back exactly; programs with the layer's captures and
// threads shrink to their few steps.
#include "catch_compat.hpp"
#include "cases/fuzz/generator.hpp"
#include "cases/fuzz/model.hpp"
#include "cases/fuzz/shrink.hpp"

using namespace hostcb::fuzz;

TEST_CASE("fuzz cuts are one word, written one way", "[fuzz]") {
  Cuts cuts = parse_cuts("3.3n1.9r2.12");
  CHECK(cuts.ops == std::set<int>{3, 12});
  CHECK(cuts.nodes == std::set<std::pair<int, int>>{{3, 1}});
  CHECK(cuts.times == std::map<int, int>{{9, 2}});
  CHECK(cuts_word(cuts) == "3.3n1.9r2.12");
  CHECK(cuts_word(parse_cuts("none")) == "none");
  for (const char* bad : {"", "x", "3..4", "4.3", "03", "3r0", "3n", "n3", "3.3"})
    CHECK_THROWS_AS(parse_cuts(bad), std::invalid_argument);
}

TEST_CASE("fuzz shrinking a planted failure ends at the known minimal program", "[fuzz]") {
  const Program program = generate(17, 40, OpSet::graph);
  auto fails = [&](LayerKind layer) {
    return [&program, layer](const Cuts& cuts) { return predict_fault(apply_cuts(program, cuts), layer).has_value(); };
  };
  REQUIRE(fails(LayerKind::oneshot)(Cuts{}));
  const Cuts cuts = shrink(program, {}, fails(LayerKind::oneshot));
  const Program minimal = apply_cuts(program, cuts);
  CHECK(to_text(minimal) ==
        "seed 17, size 40: runtime API, 1 launch stream, 3 operations\n"
        "1. g0 = capture (global, 2 streams): s0[] s1[n0 host h0]\n"
        "2. e1 = instantiate g0\n"
        "3. launch e1 on stream 0 x2\n");
  // 1-minimal: no single op, node or launch less keeps the failure
  for (const Op& op : minimal.ops) {
    Cuts less = cuts;
    less.ops.insert(op.index);
    CHECK_FALSE(fails(LayerKind::oneshot)(less));
  }
  // and the word reproduces it
  CHECK(to_text(apply_cuts(program, parse_cuts(cuts_word(cuts)))) == to_text(minimal));
}

TEST_CASE("fuzz shrinking finds each control layer's smallest composition", "[fuzz]") {
  const Program program = generate(4, 40, OpSet::graph);  // a control for both layers in the default matrix
  for (LayerKind layer : {LayerKind::frees_on_update, LayerKind::exec_set_in_graph}) {
    auto fails = [&](const Cuts& cuts) { return predict_fault(apply_cuts(program, cuts), layer).has_value(); };
    REQUIRE(fails(Cuts{}));
    const Program minimal = apply_cuts(program, shrink(program, {}, fails));
    INFO(to_text(minimal));
    CHECK(minimal.ops.size() <= 5);  // build, instantiate, update, (destroy), launch
    CHECK(predict_fault(minimal, layer));
    CHECK_FALSE(predict_fault(minimal, LayerKind::correct));
  }
}

namespace {
// Shrinks `program` against `layer`'s simulated fault and checks that no single op less keeps it.
Program shrunk(const Program& program, LayerKind layer) {
  auto fails = [&](const Cuts& cuts) { return predict_fault(apply_cuts(program, cuts), layer).has_value(); };
  REQUIRE(fails(Cuts{}));
  const Cuts cuts = shrink(program, {}, fails);
  const Program minimal = apply_cuts(program, cuts);
  INFO(to_text(minimal));
  for (const Op& op : minimal.ops) {
    Cuts less = cuts;
    less.ops.insert(op.index);
    CHECK_FALSE(fails(less));
  }
  return minimal;
}
}  // namespace

TEST_CASE("fuzz shrinking cuts the layer's captures and the threads' steps to the smallest composition", "[fuzz]") {
  const Program program = generate(8, 40, OpSet::all);  // a control for both new layers in the default matrix
  SECTION("frees_at_end_capture: the layer's capture, an exec of it, a launch (its block's fork cut)") {
    CHECK(to_text(shrunk(program, LayerKind::frees_at_end_capture)) ==
          "seed 8, size 40, all operations: runtime API, 5 launch streams, 3 operations\n"
          "1. g23 = capture by the layer (thread_local, 1 stream): s0[n0 host h11]\n"
          "2. e25 = instantiate g23\n"
          "3. launch e25 on stream 4 x1\n");
  }
  SECTION("racing_registry: a fork, and two threads' records that are called") {
    const Program minimal = shrunk(program, LayerKind::racing_registry);
    CHECK(to_text(minimal) ==
          "seed 8, size 40, all operations: runtime API, 5 launch streams, 7 operations\n"
          "1. fork 4 threads (every launch stream synchronized first)\n"
          "2. [t1] g17 = capture by the layer (relaxed, 1 stream): s0[n5 host h7]\n"
          "3. [t1] e18 = instantiate g17\n"
          "4. [t3] g19 = nodes: n2 host h10\n"
          "5. [t3] e20 = instantiate g19\n"
          "6. [t1] launch e18 on stream 4 x1\n"
          "7. [t3] launch e20 on stream 2 x1\n");
    CHECK_FALSE(predict_fault(minimal, LayerKind::correct));
  }
}

TEST_CASE("fuzz shrinking with candidates side by side finds what one at a time finds", "[fuzz][pool]") {
  const Program program = generate(17, 40, OpSet::graph);
  auto fails = [&](const Cuts& cuts) { return predict_fault(apply_cuts(program, cuts), LayerKind::oneshot).has_value(); };
  const Cuts one_at_a_time = shrink(program, {}, fails);
  for (std::size_t window : {2u, 4u, 8u}) {
    std::size_t asked = 0, widest = 0;
    const Cuts side_by_side = shrink(program, {}, window, [&](const std::vector<Cuts>& candidates) -> std::optional<std::size_t> {
      ++asked;
      widest = std::max(widest, candidates.size());
      CHECK(candidates.size() <= window);
      for (std::size_t k = 0; k < candidates.size(); ++k)
        if (fails(candidates[k])) return k;
      return std::nullopt;
    });
    INFO("window " << window << ", asked " << asked << " times");
    CHECK(side_by_side == one_at_a_time);
    CHECK(widest >= 2);  // candidates really went together
  }
}
