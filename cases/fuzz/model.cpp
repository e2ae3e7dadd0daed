#include "cases/fuzz/model.hpp"

#include <algorithm>

namespace hostcb::fuzz {

LayerKind layer_kind(const std::string& forward) {
  if (forward == "oneshot") return LayerKind::oneshot;
  if (forward == "frees_on_update") return LayerKind::frees_on_update;
  if (forward == "exec_set_in_graph") return LayerKind::exec_set_in_graph;
  if (forward == "frees_at_end_capture") return LayerKind::frees_at_end_capture;
  if (forward == "racing_registry") return LayerKind::racing_registry;
  return LayerKind::correct;
}

Model::Model(const Program& program, LayerKind layer)
    : program_(program),
      layer_(layer),
      enqueued_(program.sites, 0),
      finished_(program.sites, 0),
      kernel_runs_(program.cells, 0),
      pending_(program.streams, std::vector<std::uint64_t>(program.sites, 0)),
      pending_kernels_(program.streams, 0) {}

namespace {

bool is_build(OpKind kind) { return kind == OpKind::capture || kind == OpKind::nodes; }

// The item names a build's nodes depend on: deps for explicit nodes; the previous item on
// the same stream for a capture (every stream forks at the start and joins at the end).
std::vector<std::vector<int>> item_deps(const Op& op) {
  std::vector<std::vector<int>> deps(op.items.size());
  std::map<int, int> last_on_stream;
  for (std::size_t i = 0; i < op.items.size(); ++i) {
    if (op.kind == OpKind::nodes) {
      deps[i] = op.items[i].deps;
      continue;
    }
    auto last = last_on_stream.find(op.items[i].stream);
    if (last != last_on_stream.end()) deps[i] = {last->second};
    last_on_stream[op.items[i].stream] = op.items[i].name;
  }
  return deps;
}

int top_level_host(const Contents& c, int item) {
  for (std::size_t i = 0; i < c.items.size(); ++i)
    if (c.items[i] == item) return static_cast<int>(i);
  return -1;
}

}  // namespace

bool Model::legal(const Op& op) const {
  if (op.kind == OpKind::fork)
    return !block_ && op.thread == 0 && op.threads >= 2 && op.threads <= kMaxThreads && op.threads <= program_.streams;
  if (op.kind == OpKind::join) return block_ && op.thread == 0;
  if (block_ ? !legal_in_block(op) : op.thread != 0) return false;
  switch (op.kind) {
    case OpKind::capture:
    case OpKind::nodes: {
      if (op.items.empty() || graphs_.count(op.index)) return false;
      std::set<int> names, sites;
      for (const auto& item : op.items) {
        for (int d : item.deps)
          if (!names.count(d)) return false;
        if (!names.insert(item.name).second) return false;
        if (op.kind == OpKind::capture && (item.kind == ItemKind::empty || item.kind == ItemKind::child)) return false;
        if (item.kind == ItemKind::host && !sites.insert(item.id).second) return false;
        if (item.kind == ItemKind::child) {
          if (!graph_live(item.id)) return false;
          for (int s : graph(item.id).sites)
            if (!sites.insert(s).second) return false;  // a site appears once per graph
        }
      }
      return true;
    }
    case OpKind::instantiate:
    case OpKind::clone: return graph_live(op.graph) && !graphs_.count(op.index) && !execs_.count(op.index);
    // A node is one of the graph's own host nodes (>= 0): the sites of a child graph's
    // host nodes sit beside them as -1, and are not the parent's to set.
    case OpKind::graph_set_host:
      return op.node >= 0 && graph_live(op.graph) && top_level_host(graph(op.graph), op.node) >= 0;
    case OpKind::exec_set_host:
      // The node is named by the graph the exec was made from, which must still exist;
      // after an exec update, which graph's nodes name it is left alone.
      return op.node >= 0 && exec_live(op.exec) && !updated_execs_.count(op.exec) && graph_live(exec_source(op.exec)) &&
             top_level_host(exec(op.exec), op.node) >= 0;
    case OpKind::exec_update:
      return exec_live(op.exec) && graph_live(op.graph) && graph(op.graph).build == exec(op.exec).build;
    case OpKind::launch: return exec_live(op.exec) && op.stream >= 0 && op.stream < program_.streams && op.times >= 1;
    case OpKind::sync: return op.stream >= -1 && op.stream < program_.streams;
    case OpKind::destroy_graph: return graph_live(op.graph);
    case OpKind::destroy_exec: return exec_live(op.exec);
    case OpKind::stream_callback:
      return op.site >= 0 && op.site < program_.sites && op.stream >= 0 && op.stream < program_.streams;
    case OpKind::fork:
    case OpKind::join: return false;  // above
  }
  return false;
}

Model::Claims Model::claims_of(const Op& op) const {
  Claims c;
  auto use = [&](int object, const Contents* held) {
    c.objects.push_back(object);
    if (!held) return;
    c.sites.insert(held->sites.begin(), held->sites.end());
    c.sites.insert(held->refs.begin(), held->refs.end());
  };
  auto use_graph = [&](int g) { use(g, graphs_.count(g) ? &graphs_.at(g) : nullptr); };
  auto use_exec = [&](int e) { use(e, execs_.count(e) ? &execs_.at(e) : nullptr); };
  switch (op.kind) {
    case OpKind::capture:
    case OpKind::nodes:
      c.objects.push_back(op.index);
      for (const auto& item : op.items) {
        if (item.kind == ItemKind::host) c.sites.insert(item.id);
        if (item.kind == ItemKind::child) use_graph(item.id);
      }
      break;
    case OpKind::instantiate:
    case OpKind::clone:
      use_graph(op.graph);
      c.objects.push_back(op.index);
      break;
    case OpKind::graph_set_host:
      use_graph(op.graph);
      c.sites.insert(op.site);
      break;
    case OpKind::exec_set_host:
      use_exec(op.exec);
      if (exec_source_.count(op.exec)) use_graph(exec_source(op.exec));
      c.sites.insert(op.site);
      break;
    case OpKind::exec_update:
      use_exec(op.exec);
      use_graph(op.graph);
      break;
    case OpKind::launch:
    case OpKind::destroy_exec: use_exec(op.exec); break;
    case OpKind::destroy_graph: use_graph(op.graph); break;
    case OpKind::stream_callback: c.sites.insert(op.site); break;
    case OpKind::sync:
    case OpKind::fork:
    case OpKind::join: break;
  }
  return c;
}

// A block's op: run by one of its threads, on that thread's streams, never a global
// capture, touching nothing another thread of the block has touched.
bool Model::legal_in_block(const Op& op) const {
  const int threads = block_->threads;
  if (op.thread < 1 || op.thread > threads) return false;
  if (op.kind == OpKind::capture && op.mode == 0) return false;
  const bool on_a_stream = op.kind == OpKind::launch || op.kind == OpKind::sync || op.kind == OpKind::stream_callback;
  if (on_a_stream && (op.stream < 0 || stream_owner(op.stream, threads) != op.thread)) return false;
  const Claims c = claims_of(op);
  for (int object : c.objects) {
    auto owner = block_->object_owner.find(object);
    if (owner != block_->object_owner.end() && owner->second != op.thread) return false;
  }
  for (int site : c.sites) {
    auto owner = block_->site_owner.find(site);
    if (owner != block_->site_owner.end() && owner->second != op.thread) return false;
  }
  return true;
}

void Model::claim(const Op& op, int op_number) {
  const Claims c = claims_of(op);
  for (int object : c.objects) block_->object_owner[object] = op.thread;
  for (int site : c.sites) block_->site_owner[site] = op.thread;
  // The thread's first record handed to the layer, and whether it came before the thread waited.
  int first = -1;
  if (op.kind == OpKind::graph_set_host || op.kind == OpKind::exec_set_host) first = op.site;
  for (const auto& item : op.items)
    if (first < 0 && item.kind == ItemKind::host && (op.kind == OpKind::capture || op.kind == OpKind::nodes))
      first = item.id;
  auto& records = blocks_.back().threads;
  if (first >= 0 && !records.count(op.thread))
    records[op.thread] = FirstRecord{op_number, first, !block_->waited.count(op.thread)};
  if (op.kind == OpKind::sync || op.kind == OpKind::destroy_exec) block_->waited.insert(op.thread);
}

std::vector<int> Model::sites_of_thread(int thread) const {
  std::vector<int> sites;
  if (!block_) return sites;
  for (auto [site, owner] : block_->site_owner)
    if (owner == thread) sites.push_back(site);
  return sites;
}

bool Model::usable_by(int thread, int object) const {
  if (!block_) return true;
  auto owner = block_->object_owner.find(object);
  return owner == block_->object_owner.end() || owner->second == thread;
}

void Model::build(const Op& op) {
  Contents c;
  c.build = op.index;
  std::map<int, std::vector<int>> hosts_of;    // item name -> its host nodes (indices in c.sites)
  std::map<int, std::vector<int>> kernels_of;  // item name -> its kernel nodes (indices in c.kernels)
  std::map<int, std::set<int>> ancestors;    // item name -> names it runs after
  auto deps = item_deps(op);
  for (std::size_t i = 0; i < op.items.size(); ++i) {
    const Item& item = op.items[i];
    std::set<int>& before = ancestors[item.name];
    for (int d : deps[i]) {
      before.insert(d);
      before.insert(ancestors[d].begin(), ancestors[d].end());
    }
    std::vector<int>& mine = hosts_of[item.name];
    std::vector<int>& my_kernels = kernels_of[item.name];
    if (item.kind == ItemKind::host) {
      mine.push_back(static_cast<int>(c.sites.size()));
      c.sites.push_back(item.id);
      c.items.push_back(item.name);
      if (op.kind == OpKind::nodes) node_records_[{op.index, item.name}] = item.id;
      if (op.by_layer && layer_ == LayerKind::frees_at_end_capture)
        freed_[item.id] = "its record was freed when the layer's capture ended";
    } else if (item.kind == ItemKind::kernel) {
      my_kernels.push_back(static_cast<int>(c.kernels.size()));
      c.kernels.push_back(item.id);
    } else if (item.kind == ItemKind::child) {
      const Contents& child = graph(item.id);
      const int offset = static_cast<int>(c.sites.size());
      const int kernel_offset = static_cast<int>(c.kernels.size());
      for (std::size_t h = 0; h < child.sites.size(); ++h) {
        mine.push_back(offset + static_cast<int>(h));
        c.sites.push_back(child.sites[h]);
        c.items.push_back(-1);
      }
      for (std::size_t k = 0; k < child.kernels.size(); ++k) my_kernels.push_back(kernel_offset + static_cast<int>(k));
      for (auto [a, b] : child.order) c.order.push_back({offset + a, offset + b});
      for (auto [k, h] : child.kernel_then_host) c.kernel_then_host.push_back({kernel_offset + k, offset + h});
      for (auto [h, k] : child.host_then_kernel) c.host_then_kernel.push_back({offset + h, kernel_offset + k});
      c.kernels.insert(c.kernels.end(), child.kernels.begin(), child.kernels.end());
      c.refs.insert(child.refs.begin(), child.refs.end());
    }
    for (int a : before) {
      for (int ha : hosts_of[a]) {
        for (int hb : mine) c.order.push_back({ha, hb});
        for (int kb : my_kernels) c.host_then_kernel.push_back({ha, kb});
      }
      for (int ka : kernels_of[a])
        for (int hb : mine) c.kernel_then_host.push_back({ka, hb});
    }
  }
  graphs_[op.index] = std::move(c);
  live_graphs_.insert(op.index);
}

void Model::call(const Contents& held, int times, int op_number, int stream) {
  for (int site : held.sites) {
    const auto freed = freed_.find(site);
    const bool freed_before = freed != freed_.end();
    const bool second_call = layer_ == LayerKind::oneshot && enqueued_[site] + static_cast<std::uint64_t>(times) >= 2;
    const bool released =
        layer_ == LayerKind::exec_set_in_graph && tied_sites_.count(site) && [&] {
          for (int g : live_graphs_)
            if (graphs_.at(g).refs.count(site)) return false;
          for (int e : live_execs_)
            if (execs_.at(e).refs.count(site)) return false;
          return true;
        }();
    if (!fault_ && (freed_before || second_call || released)) {
      std::string why = freed_before ? freed->second
                        : second_call ? "its record was freed after its first call"
                                      : "its record was freed with the graph it was tied to";
      fault_ = Fault{op_number, site, "h" + std::to_string(site) + " is called after " + why};
    }
    enqueued_[site] += static_cast<std::uint64_t>(times);
    pending_[stream][site] += static_cast<std::uint64_t>(times);
  }
  for (int cell : held.kernels) kernel_runs_[cell] += static_cast<std::uint64_t>(times);
  pending_kernels_[stream] += held.kernels.size() * static_cast<std::uint64_t>(times);
}

void Model::finish(int stream) {
  for (int site = 0; site < program_.sites; ++site) {
    finished_[site] += pending_[stream][site];
    pending_[stream][site] = 0;
  }
  pending_kernels_[stream] = 0;
}

bool Model::idle() const {
  for (const auto& stream : pending_)
    for (auto n : stream)
      if (n) return false;
  for (auto n : pending_kernels_)
    if (n) return false;
  return true;
}

void Model::apply(const Op& op, int op_number) {
  if (block_ && op.kind != OpKind::join) claim(op, op_number);
  switch (op.kind) {
    case OpKind::capture:
    case OpKind::nodes: build(op); break;
    case OpKind::instantiate:
      execs_[op.index] = graph(op.graph);
      exec_source_[op.index] = op.graph;
      live_execs_.insert(op.index);
      break;
    case OpKind::clone:
      graphs_[op.index] = graph(op.graph);
      live_graphs_.insert(op.index);
      break;
    case OpKind::graph_set_host:
    case OpKind::exec_set_host: {
      const int graph_of_node = op.kind == OpKind::graph_set_host ? op.graph : exec_source(op.exec);
      Contents& target = op.kind == OpKind::graph_set_host ? graphs_.at(op.graph) : execs_.at(op.exec);
      target.sites[top_level_host(target, op.node)] = op.site;
      if (layer_ == LayerKind::frees_on_update) {
        auto known = node_records_.find({graph_of_node, op.node});
        if (known != node_records_.end()) {
          freed_[known->second] = "its record was freed when its node was updated";
          known->second = op.site;
        }
      }
      // What exec_set_in_graph does with an exec's update of a node it made itself
      // (add_host_node; it never learns captured or cloned nodes): ties it to the graph.
      if (op.kind == OpKind::exec_set_host && node_records_.count({graph_of_node, op.node})) {
        tied_sites_.insert(op.site);
        graphs_.at(graph_of_node).refs.insert(op.site);
      }
      break;
    }
    case OpKind::exec_update: {
      Contents& target = execs_.at(op.exec);
      const Contents& from = graph(op.graph);
      target.sites = from.sites;
      target.refs = from.refs;  // CUDA replaces the exec's user objects with the graph's
      updated_execs_.insert(op.exec);
      break;
    }
    case OpKind::launch: call(exec(op.exec), op.times, op_number, op.stream); break;
    case OpKind::sync:
      for (int s = 0; s < program_.streams; ++s)
        if (op.stream < 0 || op.stream == s) finish(s);
      break;
    case OpKind::destroy_graph: live_graphs_.erase(op.graph); break;
    case OpKind::destroy_exec: live_execs_.erase(op.exec); break;
    case OpKind::stream_callback:
      enqueued_[op.site] += 1;
      pending_[op.stream][op.site] += 1;
      break;
    case OpKind::fork:
      for (int s = 0; s < program_.streams; ++s) finish(s);
      block_ = Block{};
      block_->threads = op.threads;
      blocks_.push_back(BlockRecords{op_number, {}});
      break;
    case OpKind::join: block_.reset(); break;
  }
}

Program legalize(const Program& program) {
  Program out = program;
  out.ops.clear();
  Model model(out);  // reads out.streams/sites/cells only: those never change
  for (Op op : program.ops) {
    if (is_build(op.kind)) {
      // Items whose child graph is gone go; deps on items that went go with them.
      std::set<int> names, sites;
      std::vector<Item> kept;
      for (Item item : op.items) {
        if (item.kind == ItemKind::child) {
          if (!model.graph_live(item.id)) continue;
          bool clash = false;
          for (int s : model.graph(item.id).sites) clash = clash || sites.count(s);
          if (clash) continue;
          for (int s : model.graph(item.id).sites) sites.insert(s);
        }
        if (item.kind == ItemKind::host) sites.insert(item.id);
        item.deps.erase(std::remove_if(item.deps.begin(), item.deps.end(), [&](int d) { return !names.count(d); }),
                        item.deps.end());
        names.insert(item.name);
        kept.push_back(std::move(item));
      }
      op.items = std::move(kept);
    }
    // A step of a block whose fork was cut runs on the program's thread.
    if (op.thread > 0 && model.block_threads() == 0) op.thread = 0;
    if (!model.legal(op)) continue;
    model.apply(op, static_cast<int>(out.ops.size()));
    out.ops.push_back(std::move(op));
  }
  return out;
}

namespace {

// racing_registry: the layer holds its registry's window open on every thread but the
// process's own until a second caller comes (control_layers.cpp). In a block, the first
// record to reach it and the next one (from another thread: the first one's waits) are
// each the first record of its thread, and they take one slot: one of the two is lost.
// When every thread's first record is called later, the lost one's count comes up short.
// The threads start together at the fork, and a record handed over before its thread
// first waits reaches the layer within milliseconds, so two such records meet.
std::optional<Fault> race_of(const Model& model) {
  for (const auto& block : model.blocks()) {
    std::vector<std::pair<int, const FirstRecord*>> early;  // (thread, its first record)
    bool all_called = true;
    for (const auto& [thread, first] : block.threads) {
      if (first.before_waiting) early.push_back({thread, &first});
      all_called = all_called && model.enqueued(first.site) > 0;
    }
    if (early.size() < 2 || !all_called) continue;
    const auto& [a, first_a] = early[0];
    const auto& [b, first_b] = early[1];
    const std::string both = "h" + std::to_string(first_a->site) + " (t" + std::to_string(a) + ") and h" +
                             std::to_string(first_b->site) + " (t" + std::to_string(b) + ")";
    return Fault{std::max(first_a->op, first_b->op), first_b->site,
                 both + " are registered at once after the fork at step " + std::to_string(block.fork + 1) +
                     ": the layer's registry gives one of them the other's slot"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<Fault> predict_fault(const Program& program, LayerKind layer) {
  Model model(program, layer);
  for (std::size_t i = 0; i < program.ops.size(); ++i) {
    model.apply(program.ops[i], static_cast<int>(i));
    if (model.fault()) return model.fault();
  }
  if (layer == LayerKind::racing_registry) return race_of(model);
  return std::nullopt;
}

}  // namespace hostcb::fuzz
