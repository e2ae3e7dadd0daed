#include "cases/fuzz/generator.hpp"

#include <vector>

#include "cases/fuzz/model.hpp"
#include "cases/fuzz/rng.hpp"

namespace hostcb::fuzz {

namespace {

class Generator {
 public:
  Generator(std::uint64_t seed, int size) : rng_(seed * 0x100000001b3ull + static_cast<std::uint64_t>(size)) {
    program_.seed = seed;
    program_.size = size;
    program_.api = rng_.chance(50) ? "runtime" : "driver";
    program_.streams = rng_.between(1, 3);
    program_.sites = program_.cells = 8 * size + 8;  // bounds while generating; trimmed at the end
  }

  Program run() {
    Model model(program_);
    while (static_cast<int>(program_.ops.size()) < program_.size) {
      Op op = propose(model);
      op.index = static_cast<int>(program_.ops.size());
      if (!model.legal(op)) continue;  // the proposal does not fit this state: draw again
      model.apply(op, op.index);
      program_.ops.push_back(op);
      if (op.kind == OpKind::launch && rng_.chance(50) && static_cast<int>(program_.ops.size()) < program_.size) {
        Op sync;
        sync.kind = OpKind::sync;
        sync.index = static_cast<int>(program_.ops.size());
        sync.stream = rng_.chance(50) ? op.stream : -1;
        model.apply(sync, sync.index);
        program_.ops.push_back(sync);
      }
    }
    program_.sites = next_site_;
    program_.cells = next_cell_;
    return program_;
  }

 private:
  template <class Set>
  int pick(const Set& set) {
    auto it = set.begin();
    std::advance(it, rng_.below(static_cast<int>(set.size())));
    return *it;
  }

  Op propose(const Model& model) {
    Op op;
    const auto& graphs = model.live_graphs();
    const auto& execs = model.live_execs();
    int roll = graphs.empty() ? 0 : rng_.below(100);
    if (execs.empty() && roll >= 43 && roll < 84) roll = 16;  // what needs an exec: make one
    if (roll < 16) return build(model, rng_.chance(50) ? OpKind::capture : OpKind::nodes);
    if (roll < 30) {
      op.kind = OpKind::instantiate;
      op.graph = pick(graphs);
    } else if (roll < 36) {
      op.kind = OpKind::clone;
      op.graph = pick(graphs);
    } else if (roll < 43) {
      op.kind = OpKind::graph_set_host;
      op.graph = pick(graphs);
      op.node = host_item(model.graph(op.graph));
      op.site = next_site_++;
    } else if (roll < 51 && !execs.empty()) {
      op.kind = OpKind::exec_set_host;
      op.exec = pick(execs);
      op.node = host_item(model.exec(op.exec));
      op.site = next_site_++;
    } else if (roll < 57 && !execs.empty()) {
      op.kind = OpKind::exec_update;
      op.exec = pick(execs);
      std::vector<int> same;
      for (int g : graphs)
        if (model.graph(g).build == model.exec(op.exec).build) same.push_back(g);
      if (same.empty()) return op;  // not legal: drawn again
      op.graph = same[rng_.below(static_cast<int>(same.size()))];
    } else if (roll < 84 && !execs.empty()) {
      op.kind = OpKind::launch;
      op.exec = pick(execs);
      op.stream = rng_.below(program_.streams);
      op.times = rng_.chance(75) ? rng_.between(1, 3) : rng_.between(4, 8);
    } else if (roll < 89) {
      op.kind = OpKind::sync;
      op.stream = rng_.chance(50) ? -1 : rng_.below(program_.streams);
    } else if (roll < 95) {
      op.kind = OpKind::destroy_graph;
      op.graph = pick(graphs);
    } else if (!execs.empty()) {
      op.kind = OpKind::destroy_exec;
      op.exec = pick(execs);
    } else {
      op.kind = OpKind::destroy_exec;  // not legal: drawn again
    }
    return op;
  }

  // A top-level host node's item name, or -1 (then the op is not legal: drawn again).
  int host_item(const Contents& c) {
    std::vector<int> names;
    for (int item : c.items)
      if (item >= 0) names.push_back(item);
    return names.empty() ? -1 : names[rng_.below(static_cast<int>(names.size()))];
  }

  Op build(const Model& model, OpKind kind) {
    Op op;
    op.kind = kind;
    const int count = rng_.between(1, 6);
    const int streams = kind == OpKind::capture ? rng_.between(1, 3) : 1;
    op.mode = rng_.below(3);
    std::vector<int> children(model.live_graphs().begin(), model.live_graphs().end());
    for (int i = 0; i < count; ++i) {
      Item item;
      item.name = i;
      int roll = rng_.below(100);
      if (kind == OpKind::capture) {
        item.kind = roll < 55 ? ItemKind::host : roll < 85 ? ItemKind::kernel : ItemKind::memcpy;
        item.stream = rng_.below(streams);
      } else {
        item.kind = roll < 45 ? ItemKind::host : roll < 65 ? ItemKind::kernel : roll < 75 ? ItemKind::memcpy
                  : roll < 85 || children.empty() ? ItemKind::empty : ItemKind::child;
        for (int d = 0; d < i; ++d)
          if (rng_.chance(35)) item.deps.push_back(d);
      }
      if (item.kind == ItemKind::host) item.id = next_site_++;
      if (item.kind == ItemKind::kernel || item.kind == ItemKind::memcpy) item.id = next_cell_++;
      if (item.kind == ItemKind::child) item.id = children[rng_.below(static_cast<int>(children.size()))];
      op.items.push_back(item);
    }
    // A child whose sites another item already holds would make the build illegal: make it empty.
    std::vector<bool> seen(static_cast<std::size_t>(next_site_), false);
    for (auto& item : op.items) {
      if (item.kind == ItemKind::host) seen[item.id] = true;
      if (item.kind != ItemKind::child) continue;
      bool clash = false;
      for (int s : model.graph(item.id).sites) clash = clash || seen[s];
      if (clash) {
        item.kind = ItemKind::empty;
        item.id = -1;
        continue;
      }
      for (int s : model.graph(item.id).sites) seen[s] = true;
    }
    return op;
  }

  Rng rng_;
  Program program_;
  int next_site_ = 0;
  int next_cell_ = 0;
};

}  // namespace

Program generate(std::uint64_t seed, int size) { return Generator(seed, size).run(); }

}  // namespace hostcb::fuzz
