// fuzz: generated programs of graphs, execs, updates, clones, child graphs, destruction
// and launches on several streams, from a seed and a size (cases/fuzz/), run through a
// forwarding layer and checked against the reference model after every synchronization
// and at the end:
//   - every host function was called exactly as often as the launches enqueued so far
//     make it (at least as often as those on synchronized streams): each live host node
//     once per launch of each exec holding it, with its current function and userData;
//     an update reaches the next launch, never an earlier one
//   - a launch that ran alone (synchronized before and after) called its host functions
//     in an order that respects the graph's edges, round after round, and each one saw
//     the kernels' counters the graph's edges say it must (cases/fuzz/stamps.hpp)
//   - every kernel ran once per launch of each exec holding it
//   - nothing runs after its last exec is destroyed (the runner checks the final counts
//     once the device is idle), graph_owned's records are all freed, the failure
//     channel is empty
// The id names the program: fuzz/forward=L/seed=S/size=N/cut=C, where C is `none` or the
// cuts the shrinker made (cases/fuzz/shrink.hpp). Through a known-bad layer (oneshot and
// the control-only layers), a program the model says calls a freed record is a control
// (must end failed or error); one that never does is excluded.
#include <algorithm>
#include <atomic>
#include <cuda_runtime_api.h>

#include <map>
#include <stdexcept>

#include "callback/wait.hpp"
#include "cases/cases.hpp"
#include "cases/fuzz/generator.hpp"
#include "cases/fuzz/model.hpp"
#include "cases/fuzz/shrink.hpp"
#include "cases/fuzz/stamps.hpp"
#include "cases/layer_rules.hpp"
#include "model/errors.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

using namespace hostcb::fuzz;

__global__ void fuzz_tick(unsigned* cell) { atomicAdd_system(cell, 1u); }

const GraphApi& program_api(const Program& program) { return graph_api(program.api); }

// The graph's node for the last thing enqueued on a capturing stream.
cudaGraphNode_t last_captured_node(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  const cudaGraphNode_t* deps = nullptr;
  std::size_t count = 0;
#if CUDART_VERSION >= 13000
  HOSTCB_CUDA(cudaStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &deps, nullptr, &count));
#else
  HOSTCB_CUDA(cudaStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &deps, &count));
#endif
  if (count != 1) throw std::runtime_error(str("the capturing stream depends on ", count, " nodes; expected 1"));
  return deps[0];
}

class Executor {
 public:
  Executor(ScenarioRun& run, const Program& program)
      : run_(run), api_(program_api(program)), forward_(run.forward()), program_(program), model_(program) {
    Model whole(program);
    std::uint64_t most = 1;
    for (std::size_t i = 0; i < program.ops.size(); ++i) {
      whole.apply(program.ops[i], static_cast<int>(i));
      if (program.ops[i].kind == OpKind::launch) launches_ += program.ops[i].times;
    }
    for (int s = 0; s < program.sites; ++s) most = std::max(most, whole.enqueued(s));
    probe_ = &run.make_probe(static_cast<std::size_t>(std::max(program.sites, 1)), most);
    for (int s = 0; s < std::max(program.sites, 1); ++s) probe_->expect_calls(s, s < program.sites ? whole.enqueued(s) : 0);
    for (int s = 0; s < program.streams; ++s) streams_.push_back(make_stream());
    for (int s = 0; s < 3; ++s) capture_streams_.push_back(make_stream());
    const std::size_t cells = static_cast<std::size_t>(std::max(program.cells, 1));
    memory_ = make_pinned(2 * cells * sizeof(unsigned));
    cells_ = static_cast<unsigned*>(memory_.get());
    scratch_ = cells_ + cells;
    for (std::size_t i = 0; i < 2 * cells; ++i) cells_[i] = 0;
    for (int s = 0; s < program.sites; ++s)
      probe_->set_action(static_cast<std::size_t>(s), HOSTCB_HERE, [this, s](std::int64_t) { snapshot(s); });
  }

  // The host functions' action reads this executor and its counters: no launch may still
  // be running when they go (after a step threw, launches may be in flight).
  ~Executor() {
    stamps_armed_.store(false, std::memory_order_release);
    for (auto& stream : streams_)
      check_runtime_nothrow(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize(stream)", HOSTCB_HERE);
  }
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  void run() {
    const std::int64_t records_before = forward_.live_records();
    for (std::size_t i = 0; i < program_.ops.size(); ++i) {
      const Op& op = program_.ops[i];
      step_ = op_text(op, static_cast<int>(i) + 1);
      execute(op);
      model_.apply(op, static_cast<int>(i));
      if (op.kind != OpKind::sync) continue;
      check_counts(op.stream < 0);
      const Op* previous = i > 0 ? &program_.ops[i - 1] : nullptr;
      if (previous && previous->kind == OpKind::launch && last_launch_alone_ &&
          (op.stream < 0 || op.stream == previous->stream))
        check_order(*previous, launch_calls_before_);
      if (stamps_armed_.exchange(false)) check_stamps_of(*previous);
    }
    for (auto& stream : streams_) api_.synchronize(stream.get());
    step_ = "the end";
    run_.set_property("fuzz_stamp_checks", str(stamp_checks_));
    check_counts(true);
    for (int cell = 0; cell < program_.cells; ++cell)
      HOSTCB_EXPECT(cells_[cell] == model_.kernel_runs(cell),
                    str("[kernel] at the end: kernel k", cell, " ran ", cells_[cell], " times; expected ",
                        model_.kernel_runs(cell)));
    execs_.clear();
    graphs_.clear();
    nodes_.clear();
    if (std::string(forward_.name()) == "graph_owned") {
      wait_until([&] { return forward_.live_records() <= records_before; }, 5.0);
      HOSTCB_EXPECT(forward_.live_records() == records_before,
                    str("[records] ", forward_.live_records() - records_before,
                        " record(s) of the graph_owned layer were not freed 5 s after every graph and exec was destroyed"));
    }
  }

 private:
  void execute(const Op& op) {
    switch (op.kind) {
      case OpKind::capture: capture(op); break;
      case OpKind::nodes: build_nodes(op); break;
      case OpKind::instantiate: execs_[op.index] = api_.instantiate(graphs_.at(op.graph).get()); break;
      case OpKind::clone: {
        Graph copy = api_.clone(graphs_.at(op.graph).get());
        for (auto [name, node] : nodes_[op.graph]) {
          cudaGraphNode_t found = nullptr;
          HOSTCB_CUDA(cudaGraphNodeFindInClone(&found, node, copy.get()));
          nodes_[op.index][name] = found;
        }
        graphs_[op.index] = std::move(copy);
        break;
      }
      case OpKind::graph_set_host:
        forward_.graph_set_host_node(api_, graphs_.at(op.graph).get(), nodes_.at(op.graph).at(op.node),
                                     Probe::host_fn(), probe_->user_data(op.site));
        break;
      case OpKind::exec_set_host:
        forward_.exec_set_host_node(api_, execs_.at(op.exec).get(),
                                    nodes_.at(model_.exec_source(op.exec)).at(op.node), Probe::host_fn(),
                                    probe_->user_data(op.site));
        break;
      case OpKind::exec_update: {
        ApiResult updated = api_.try_exec_update(execs_.at(op.exec).get(), graphs_.at(op.graph).get());
        if (updated.code != 0)
          throw std::runtime_error(str("step ", step_, ": updating the exec from a graph of the same topology returned ",
                                       updated.name, " (", updated.code, "); expected success"));
        break;
      }
      case OpKind::launch:
        last_launch_alone_ = model_.idle();
        launch_calls_before_ = probe_->total_calls();
        if (last_launch_alone_ && synchronized_next(op)) arm_stamps(op);
        for (int t = 0; t < op.times; ++t) {
          run_.set_launch(++launched_, launches_);
          api_.launch(execs_.at(op.exec).get(), streams_.at(op.stream).get());
        }
        break;
      case OpKind::sync:
        for (int s = 0; s < program_.streams; ++s)
          if (op.stream < 0 || op.stream == s) api_.synchronize(streams_[s].get());
        break;
      case OpKind::destroy_graph:
        graphs_.erase(op.graph);
        nodes_.erase(op.graph);
        break;
      case OpKind::destroy_exec: execs_.erase(op.exec); break;
    }
  }

  void enqueue(const Item& item, cudaStream_t stream) {
    if (item.kind == ItemKind::host) {
      forward_.launch_host_func(api_, stream, Probe::host_fn(), probe_->user_data(item.id));
    } else if (item.kind == ItemKind::kernel) {
      fuzz_tick<<<1, 1, 0, stream>>>(cells_ + item.id);
      HOSTCB_CUDA(cudaGetLastError());
    } else {
      HOSTCB_CUDA(cudaMemcpyAsync(scratch_ + item.id, cells_ + item.id, sizeof(unsigned), cudaMemcpyDefault, stream));
    }
  }

  // Stream 0 begins the capture, the others fork from it through an event and join it
  // back through one each; each item is enqueued on its stream in order.
  void capture(const Op& op) {
    int streams = 1;
    for (const auto& item : op.items) streams = std::max(streams, item.stream + 1);
    std::map<int, cudaGraphNode_t> captured;
    std::vector<Event> events;
    cudaStream_t origin = capture_streams_[0].get();
    Graph graph = capture_graph(api_, origin, parse_capture_mode(capture_mode_name(op.mode)), [&] {
      if (streams > 1) {
        events.push_back(make_event());
        api_.record_event(events.back().get(), origin);
        for (int s = 1; s < streams; ++s) api_.wait_event(capture_streams_[s].get(), events.back().get());
      }
      for (const auto& item : op.items) {
        cudaStream_t stream = capture_streams_[item.stream].get();
        enqueue(item, stream);
        if (item.kind == ItemKind::host) captured[item.name] = last_captured_node(stream);
      }
      for (int s = 1; s < streams; ++s) {
        events.push_back(make_event());
        api_.record_event(events.back().get(), capture_streams_[s].get());
        api_.wait_event(origin, events.back().get());
      }
    });
    nodes_[op.index] = std::move(captured);
    graphs_[op.index] = std::move(graph);
  }

  void build_nodes(const Op& op) {
    Graph graph = api_.create_graph();
    std::map<int, cudaGraphNode_t> made;
    for (const auto& item : op.items) {
      std::vector<cudaGraphNode_t> deps;
      for (int d : item.deps) deps.push_back(made.at(d));
      cudaGraphNode_t node = nullptr;
      unsigned* cell = cells_ + std::max(item.id, 0);
      void* args[] = {&cell};
      switch (item.kind) {
        case ItemKind::host:
          node = forward_.add_host_node(api_, graph.get(), deps, Probe::host_fn(), probe_->user_data(item.id));
          break;
        case ItemKind::kernel:
          node = api_.add_kernel_node(graph.get(), deps, reinterpret_cast<const void*>(&fuzz_tick), args);
          break;
        case ItemKind::memcpy:
          node = api_.add_memcpy_node(graph.get(), deps, scratch_ + item.id, cells_ + item.id, sizeof(unsigned));
          break;
        case ItemKind::empty:
          HOSTCB_CUDA(cudaGraphAddEmptyNode(&node, graph.get(), deps.data(), deps.size()));
          break;
        case ItemKind::child: node = api_.add_child_graph_node(graph.get(), deps, graphs_.at(item.id).get()); break;
      }
      made[item.name] = node;
    }
    nodes_[op.index] = std::move(made);
    graphs_[op.index] = std::move(graph);
  }

  // After a synchronization: each site's calls lie between those certainly finished and
  // those enqueued (exactly those enqueued once every stream is idle).
  void check_counts(bool exact) {
    for (int site = 0; site < program_.sites; ++site) {
      const std::uint64_t calls = probe_->site_calls(static_cast<std::size_t>(site));
      const std::uint64_t low = exact ? model_.enqueued(site) : model_.finished(site);
      const std::uint64_t high = model_.enqueued(site);
      if (calls >= low && calls <= high) continue;
      report_failure(__FILE__, __LINE__,
                     str("[count] after step ", step_, ": h", site, " had been called ", calls, " times; expected ",
                         low == high ? str(low) : str(low, " to ", high)));
      return;  // one is enough: the rest usually follow from it
    }
  }

  // Whether the op after `launch` synchronizes its stream: then a launch that ran alone
  // is seen whole, and its host functions' snapshots of the counters can be checked.
  bool synchronized_next(const Op& launch) const {
    const std::size_t next = static_cast<std::size_t>(&launch - program_.ops.data()) + 1;
    if (next >= program_.ops.size()) return false;
    const Op& op = program_.ops[next];
    return op.kind == OpKind::sync && (op.stream < 0 || op.stream == launch.stream);
  }

  // Before a launch that runs alone: room for one snapshot per host call it makes, and the
  // counters as they stand (the device is idle, so the model's counts are the cells').
  void arm_stamps(const Op& launch) {
    const std::size_t calls = model_.exec(launch.exec).sites.size() * static_cast<std::size_t>(launch.times);
    snapshots_.assign(calls, StampSnapshot{-1, std::vector<std::uint64_t>(program_.cells, 0)});
    stamp_base_.assign(program_.cells, 0);
    for (int cell = 0; cell < program_.cells; ++cell) stamp_base_[cell] = model_.kernel_runs(cell);
    next_snapshot_.store(0, std::memory_order_relaxed);
    stamps_armed_.store(true, std::memory_order_release);
  }

  // In the host function (the probe's action): what the counters read now.
  void snapshot(int site) {
    if (!stamps_armed_.load(std::memory_order_acquire)) return;
    const std::size_t slot = next_snapshot_.fetch_add(1, std::memory_order_relaxed);
    if (slot >= snapshots_.size()) return;  // more calls than the launch makes: the counts say so
    StampSnapshot& seen = snapshots_[slot];
    seen.site = site;
    for (int cell = 0; cell < program_.cells; ++cell)
      seen.cells[cell] = __atomic_load_n(&cells_[cell], __ATOMIC_ACQUIRE);
  }

  // After the synchronization that ends an armed launch: round after round, each host
  // call's snapshot against the bounds the graph's edges give (only when the launch made
  // exactly its calls; otherwise the counts say what is wrong).
  void check_stamps_of(const Op& launch) {
    const Contents& held = model_.exec(launch.exec);
    const std::size_t per_round = held.sites.size();
    if (per_round == 0 || next_snapshot_.load(std::memory_order_acquire) != snapshots_.size()) return;
    for (std::size_t slot = 0; slot < snapshots_.size(); ++slot) {
      const int round = static_cast<int>(slot / per_round);
      ++stamp_checks_;
      if (auto wrong = check_stamps(held, round, stamp_base_, snapshots_[slot])) {
        report_failure(__FILE__, __LINE__, str("[stamp] step ", step_, ", launch ", round + 1, ": ", *wrong));
        return;  // one is enough
      }
    }
  }

  // The launches of one exec that ran alone: round after round, each host function once,
  // in an order that respects the graph's edges.
  void check_order(const Op& launch, std::uint64_t first_call) {
    const Contents& held = model_.exec(launch.exec);
    const std::vector<Probe::Call> calls = probe_->recorded_calls();
    const std::size_t per_round = held.sites.size();
    if (per_round == 0 || calls.size() < first_call + per_round * static_cast<std::size_t>(launch.times)) return;
    for (int round = 0; round < launch.times; ++round) {
      std::map<int, std::size_t> position;  // site -> its place in the round
      for (std::size_t k = 0; k < per_round; ++k)
        position[static_cast<int>(calls[first_call + round * per_round + k].site)] = k;
      for (auto [a, b] : held.order) {
        const int before = held.sites[a], after = held.sites[b];
        if (!position.count(before) || !position.count(after)) return;  // the counts say what is wrong
        HOSTCB_EXPECT(position[before] < position[after],
                      str("[order] step ", step_, ", launch ", round + 1, ": h", after, " ran before h", before,
                          ", which the graph orders first"));
        if (position[before] >= position[after]) return;
      }
    }
  }

  ScenarioRun& run_;
  const GraphApi& api_;
  Forwarder& forward_;
  const Program& program_;
  Model model_;
  Probe* probe_ = nullptr;
  std::vector<Stream> streams_, capture_streams_;
  PinnedMemory memory_;
  unsigned* cells_ = nullptr;
  unsigned* scratch_ = nullptr;
  std::map<int, Graph> graphs_;
  std::map<int, std::map<int, cudaGraphNode_t>> nodes_;  // graph -> item name -> node
  std::map<int, GraphExec> execs_;
  std::string step_;
  std::int64_t launches_ = 0, launched_ = 0;
  bool last_launch_alone_ = false;
  std::uint64_t launch_calls_before_ = 0;
  // The counters' snapshots of an armed launch (arm_stamps), written by the host functions.
  std::atomic<bool> stamps_armed_{false};
  std::atomic<std::size_t> next_snapshot_{0};
  std::vector<StampSnapshot> snapshots_;
  std::vector<std::uint64_t> stamp_base_;
  std::uint64_t stamp_checks_ = 0;
};

Program program_of(const Params& p) {
  Cuts cuts;
  try {
    cuts = parse_cuts(p.get("cut"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return apply_cuts(generate(static_cast<std::uint64_t>(p.get_count("seed")), static_cast<int>(p.get_count("size"))), cuts);
}

// The layer operations a program performs: a layer that lacks one is excluded, naming it.
std::vector<LayerOp> layer_ops_of(const Program& program) {
  std::vector<LayerOp> ops;
  auto need = [&](LayerOp op) {
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
  };
  for (const auto& op : program.ops) {
    for (const auto& item : op.items)
      if (item.kind == ItemKind::host) need(op.kind == OpKind::capture ? LayerOp::launch_host_func : LayerOp::add_host_node);
    if (op.kind == OpKind::graph_set_host) need(LayerOp::graph_set_host_node);
    if (op.kind == OpKind::exec_set_host) need(LayerOp::exec_set_host_node);
  }
  return ops;
}

void fuzz_body(ScenarioRun& run) {
  const Program program = program_of(run.params());
  run.set_property("fuzz_program", to_text(program));
  Executor(run, program).run();
}

}  // namespace

Family fuzz_family() {
  Family family;
  family.name = "fuzz";
  family.summary = "generated programs of graphs, execs, updates, clones and launches, checked against a model";
  family.axes = {
      Axis::choice("forward", forwarder_names(true)),
      Axis::count("seed", {1, 2, 3, 4, 5, 6, 7, 8}, 1'000'000'000'000),
      Axis::count("size", {40}, 400),
      Axis::word("cut", {"none"}),
  };
  family.body = fuzz_body;
  family.excluded = [](const Params& p) -> std::optional<std::string> {
    if (auto lacks = layer_lacks(p, layer_ops_of(program_of(p)))) return lacks;
    const LayerKind layer = layer_kind(p.get("forward"));
    if (layer == LayerKind::correct) return std::nullopt;
    if (predict_fault(program_of(p), layer)) return std::nullopt;
    return "the " + p.get("forward") + " layer's bug is not reached by this program (the model says)";
  };
  family.control = [](const Params& p) -> std::optional<ExpectedVerdict> {
    const LayerKind layer = layer_kind(p.get("forward"));
    if (layer == LayerKind::correct) {
      program_of(p);  // a malformed cut is refused here, for every layer
      return std::nullopt;
    }
    if (!predict_fault(program_of(p), layer)) return std::nullopt;
    return ExpectedVerdict{{Status::failed, Status::error}, ""};
  };
  family.requirements = [](const Params&) {
    Requirements needs;
    needs.min_runtime = needs.min_driver = 12000;  // cudaGraphExecUpdate's ResultInfo form
    return needs;
  };
  return family;
}

HOSTCB_FAMILY(fuzz_family);

}  // namespace hostcb::cases
