#include "cases/fuzz/generator.hpp"

#include <optional>
#include <vector>

#include "cases/fuzz/model.hpp"
#include "cases/fuzz/rng.hpp"

namespace hostcb::fuzz {

namespace {

// OpSet::all draws from a stream of its own, so its programs share nothing with graph's.
constexpr std::uint64_t kAllSalt = 0x5bd1e9955bd1e995ull;

class Generator {
 public:
  Generator(std::uint64_t seed, int size, OpSet set)
      : rng_((seed * 0x100000001b3ull + static_cast<std::uint64_t>(size)) ^ (set == OpSet::all ? kAllSalt : 0)) {
    program_.seed = seed;
    program_.size = size;
    program_.set = set;
    program_.api = rng_.chance(50) ? "runtime" : "driver";
    // A block's threads each need a launch stream of their own.
    program_.streams = set == OpSet::graph ? rng_.between(1, 3) : rng_.between(kMaxThreads, kMaxThreads + 2);
    program_.sites = program_.cells = 8 * size + 8;  // bounds while generating; trimmed at the end
  }

  Program run() {
    Model model(program_);
    while (left() > 0) {
      Op op = program_.set == OpSet::all ? propose_any(model) : propose(model, 0);
      op.index = static_cast<int>(program_.ops.size());
      if (!model.legal(op)) continue;  // the proposal does not fit this state: draw again
      push(model, op);
      if (op.kind == OpKind::launch && rng_.chance(50) && left() > 0) {
        Op sync;
        sync.kind = OpKind::sync;
        sync.index = static_cast<int>(program_.ops.size());
        sync.stream = rng_.chance(50) ? op.stream : -1;
        sync.thread = op.thread;
        if (op.thread > 0) sync.stream = op.stream;  // a block's thread waits on its own stream only
        push(model, sync);
      }
    }
    program_.sites = next_site_;
    program_.cells = next_cell_;
    return program_;
  }

 private:
  int left() const { return program_.size - static_cast<int>(program_.ops.size()); }

  void push(Model& model, const Op& op) {
    model.apply(op, op.index);
    program_.ops.push_back(op);
    if (op.kind == OpKind::fork) {
      block_ops_left_ = rng_.between(2 * op.threads, 4 * op.threads);
      started_.assign(kMaxThreads + 1, false);
    }
    if (op.thread > 0) {
      --block_ops_left_;
      started_[op.thread] = true;
    }
  }

  template <class Set>
  std::vector<int> usable(const Model& model, const Set& set, int thread) const {
    std::vector<int> out;
    for (int object : set)
      if (model.usable_by(thread, object)) out.push_back(object);
    return out;
  }
  int pick(const std::vector<int>& list) { return list[rng_.below(static_cast<int>(list.size()))]; }

  // A launch stream the thread may use: any for thread 0, its own in a block.
  int stream_for(const Model& model, int thread) {
    if (thread == 0) return rng_.below(program_.streams);
    std::vector<int> own;
    for (int s = 0; s < program_.streams; ++s)
      if (Model::stream_owner(s, model.block_threads()) == thread) own.push_back(s);
    return pick(own);
  }

  // OpSet::all: blocks of threads, stream callbacks and the layer's captures, beside
  // everything propose() draws.
  Op propose_any(const Model& model) {
    Op op;
    if (model.block_threads() > 0) {
      if (block_ops_left_ <= 0 || left() == 1) {
        op.kind = OpKind::join;
        return op;
      }
      const int thread = 1 + rng_.below(model.block_threads());
      // A thread often builds a graph of its own, instantiates it and launches it, as
      // the concurrency family's threads do.
      if (!started_[thread] && rng_.chance(75))
        return build(model, rng_.chance(50) ? OpKind::capture : OpKind::nodes, thread);
      if (rng_.chance(70)) {
        if (auto next = follow_up(model, thread)) return *next;
      }
      if (rng_.chance(8)) return stream_callback(model, thread);
      return propose(model, thread);
    }
    const int roll = rng_.below(100);
    if (roll < 8 && left() >= 4) {
      op.kind = OpKind::fork;
      op.threads = rng_.between(2, kMaxThreads);
      return op;
    }
    if (roll < 14) return stream_callback(model, 0);
    return propose(model, 0);
  }


  // The thread's next step with what it made in this block: an instantiation of its
  // newest graph not yet instantiated, or a launch of its newest exec not yet launched.
  std::optional<Op> follow_up(const Model& model, int thread) {
    Op op;
    op.thread = thread;
    for (auto it = program_.ops.rbegin(); it != program_.ops.rend() && it->kind != OpKind::fork; ++it) {
      if (it->thread != thread) continue;
      const bool graph_made = it->kind == OpKind::capture || it->kind == OpKind::nodes || it->kind == OpKind::clone;
      if (it->kind == OpKind::instantiate && model.exec_live(it->index) && !launched(it->index)) {
        op.kind = OpKind::launch;
        op.exec = it->index;
        op.stream = stream_for(model, thread);
        op.times = rng_.between(1, 3);
        return op;
      }
      if (graph_made && model.graph_live(it->index) && !instantiated(it->index)) {
        op.kind = OpKind::instantiate;
        op.graph = it->index;
        return op;
      }
    }
    return std::nullopt;
  }
  bool instantiated(int graph) const {
    for (const auto& op : program_.ops)
      if (op.kind == OpKind::instantiate && op.graph == graph) return true;
    return false;
  }
  bool launched(int exec) const {
    for (const auto& op : program_.ops)
      if (op.kind == OpKind::launch && op.exec == exec) return true;
    return false;
  }

  Op stream_callback(const Model& model, int thread) {
    Op op;
    op.kind = OpKind::stream_callback;
    op.thread = thread;
    op.stream = stream_for(model, thread);
    op.site = next_site_++;
    return op;
  }

  // Any of the original operations, for `thread` (0 outside a block).
  Op propose(const Model& model, int thread) {
    Op op;
    op.thread = thread;
    const std::vector<int> graphs = usable(model, model.live_graphs(), thread);
    const std::vector<int> execs = usable(model, model.live_execs(), thread);
    int roll = graphs.empty() ? 0 : rng_.below(100);
    if (execs.empty() && roll >= 43 && roll < 84) roll = 16;  // what needs an exec: make one
    if (roll < 16) return build(model, rng_.chance(50) ? OpKind::capture : OpKind::nodes, thread);
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
      op.graph = pick(same);
    } else if (roll < 84 && !execs.empty()) {
      op.kind = OpKind::launch;
      op.exec = pick(execs);
      op.stream = stream_for(model, thread);
      op.times = rng_.chance(75) ? rng_.between(1, 3) : rng_.between(4, 8);
    } else if (roll < 89) {
      op.kind = OpKind::sync;
      op.stream = rng_.chance(50) ? -1 : rng_.below(program_.streams);
      if (thread > 0) op.stream = stream_for(model, thread);  // a block's thread: its own stream
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
    return names.empty() ? -1 : pick(names);
  }

  Op build(const Model& model, OpKind kind, int thread) {
    Op op;
    op.kind = kind;
    op.thread = thread;
    const int count = rng_.between(1, 6);
    const int streams = kind == OpKind::capture ? rng_.between(1, 3) : 1;
    op.mode = rng_.below(3);
    if (program_.set == OpSet::all && kind == OpKind::capture) op.by_layer = rng_.chance(50);
    if (thread > 0 && op.mode == 0) op.mode = 1 + rng_.below(2);  // a global capture forbids the other threads' calls
    const std::vector<int> children = usable(model, model.live_graphs(), thread);
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
      if (item.kind == ItemKind::child) item.id = pick(children);
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
  int block_ops_left_ = 0;      // steps the open block may still take before its join
  std::vector<bool> started_ = std::vector<bool>(kMaxThreads + 1, false);  // thread -> a step taken in the open block
};

}  // namespace

Program generate(std::uint64_t seed, int size, OpSet set) { return Generator(seed, size, set).run(); }

}  // namespace hostcb::fuzz
