// fuzz: generated programs of graphs, execs, updates, clones, child graphs, destruction
// and launches on several streams, from a seed and a size (cases/fuzz/), run through a
// forwarding layer and checked against the reference model after every synchronization
// and at the end. With ops=all a program also captures through the layer's own
// begin_capture/end_capture (every mode, side streams forked and joined inside), adds
// stream callbacks, and runs blocks of its steps on 2 to 4 host threads at once (each
// thread on its own streams, touching only what the model gives it: cases/fuzz/model.hpp).
// What is checked:
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
// The id names the program: fuzz/forward=L/seed=S/size=N/cut=C (ops=graph, left out of
// the ids, so that every id published before ops=all keeps its program) or
// fuzz/forward=L/seed=S/size=N/ops=all/cut=C, where C is `none` or the cuts the shrinker
// made (cases/fuzz/shrink.hpp). Through a known-bad layer (oneshot and
// the control-only layers), a program the model says calls a freed record is a control
// (must end failed or error); one that never does is excluded.
#include <algorithm>
#include <atomic>
#include <cuda_runtime_api.h>

#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "callback/wait.hpp"
#include "cases/cases.hpp"
#include "cases/fuzz/generator.hpp"
#include "cases/fuzz/model.hpp"
#include "cases/fuzz/shrink.hpp"
#include "cases/fuzz/stamps.hpp"
#include "cases/fuzz_kernel.hpp"
#include "cases/fuzz_layer_needs.hpp"
#include "cases/layer_rules.hpp"
#include "cuda/forwarding.hpp"
#include "cuda/kernel_launch.hpp"
#include "model/errors.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

using namespace hostcb::fuzz;

__global__ void fuzz_tick(unsigned* cell) { atomicAdd_system(cell, 1u); }

// The graph's node for the last thing enqueued on a capturing stream.
cudaGraphNode_t last_captured_node(const GraphApi& api, cudaStream_t stream) {
  const std::vector<cudaGraphNode_t> deps = api.capture_dependencies(stream);
  if (deps.size() != 1) throw std::runtime_error(str("the capturing stream depends on ", deps.size(), " nodes; expected 1"));
  return deps[0];
}

}  // namespace

const void* fuzz_tick_kernel() { return reinterpret_cast<const void*>(&fuzz_tick); }

namespace {

// Who runs a step: the program's thread (0) or a block's, with the step's text for messages.
struct Lane {
  int thread = 0;
  std::string step;
};

// What a block's thread must see after one of its synchronizations: the calls of each of
// its own sites (the others' run meanwhile), between those certainly finished and those enqueued.
struct SiteBounds {
  int site;
  std::uint64_t low, high;
};

// Every CUDA call goes through api_ (the program's API, or the CPU stand-in that
// tests/sim_cases.cpp puts in its place), and host functions through the layer.
class Executor {
 public:
  Executor(ScenarioRun& run, const Program& program)
      : run_(run), api_(run.api_named(program.api)), forward_(run.forward()), program_(program), model_(program) {
    Model whole(program);
    std::uint64_t most = 1;
    int threads = 0;
    for (std::size_t i = 0; i < program.ops.size(); ++i) {
      whole.apply(program.ops[i], static_cast<int>(i));
      if (program.ops[i].kind == OpKind::launch) launches_ += program.ops[i].times;
      threads = std::max(threads, program.ops[i].threads);
    }
    for (int s = 0; s < program.sites; ++s) most = std::max(most, whole.enqueued(s));
    probe_ = &run.make_probe(static_cast<std::size_t>(std::max(program.sites, 1)), most);
    for (int s = 0; s < std::max(program.sites, 1); ++s) probe_->expect_calls(s, s < program.sites ? whole.enqueued(s) : 0);
    for (int s = 0; s < program.streams; ++s) streams_.push_back(api_.make_stream());
    capture_streams_.resize(static_cast<std::size_t>(threads) + 1);  // each thread captures on its own
    for (auto& own : capture_streams_)
      for (int s = 0; s < 3; ++s) own.push_back(api_.make_stream());
    const std::size_t cells = static_cast<std::size_t>(std::max(program.cells, 1));
    memory_ = api_.make_pinned(2 * cells * sizeof(unsigned));
    cells_ = static_cast<unsigned*>(memory_.get());
    scratch_ = cells_ + cells;
    for (std::size_t i = 0; i < 2 * cells; ++i) cells_[i] = 0;
    for (int s = 0; s < program.sites; ++s)
      probe_->set_action(static_cast<std::size_t>(s), HOSTCB_HERE, [this, s](std::int64_t) { snapshot(s); });
    // The kernel's module is loaded now, not by a block's first launch, which would hold
    // that thread back for milliseconds while the others go on.
    api_.load_kernel(fuzz_tick_kernel());
  }

  // The host functions' action reads this executor and its counters: no launch may still
  // be running when they go (after a step threw, launches may be in flight).
  ~Executor() {
    stamps_armed_.store(false, std::memory_order_release);
    for (auto& stream : streams_) api_.synchronize_nothrow(stream.get());
  }
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  void run() {
    const std::int64_t records_before = forward_.live_records();
    Lane lane;
    for (std::size_t i = 0; i < program_.ops.size(); ++i) {
      const Op& op = program_.ops[i];
      if (op.kind == OpKind::fork) {
        i = run_block(i);  // on to the join
        continue;
      }
      lane.step = op_text(op, static_cast<int>(i) + 1);
      execute(op, lane);
      model_.apply(op, static_cast<int>(i));
      if (op.kind != OpKind::sync) continue;
      check_counts(op.stream < 0, lane);
      const Op* previous = i > 0 ? &program_.ops[i - 1] : nullptr;
      if (previous && previous->kind == OpKind::launch && last_launch_alone_ &&
          (op.stream < 0 || op.stream == previous->stream))
        check_order(*previous, launch_calls_before_, lane);
      if (stamps_armed_.exchange(false)) check_stamps_of(*previous, lane);
    }
    for (auto& stream : streams_) api_.synchronize(stream.get());
    lane.step = "the end";
    run_.set_property("fuzz_stamp_checks", str(stamp_checks_));
    check_counts(true, lane);
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
  // The fork at `fork` and its block: every launch stream synchronized, then each thread
  // runs its steps at once with the others, checking its own sites at its synchronizations
  // against what the model says there. Returns the join's index (the program's length if none).
  std::size_t run_block(std::size_t fork) {
    const Op& fork_op = program_.ops[fork];
    Lane lane{0, op_text(fork_op, static_cast<int>(fork) + 1)};
    for (auto& stream : streams_) api_.synchronize(stream.get());
    model_.apply(fork_op, static_cast<int>(fork));
    check_counts(true, lane);
    // The model goes through the block in program order now: the threads' steps commute.
    std::vector<std::vector<std::size_t>> steps(static_cast<std::size_t>(fork_op.threads) + 1);
    std::map<std::size_t, std::vector<SiteBounds>> bounds;  // a synchronization -> its thread's sites
    std::size_t end = fork + 1;
    for (; end < program_.ops.size() && program_.ops[end].kind != OpKind::join; ++end) {
      const Op& op = program_.ops[end];
      model_.apply(op, static_cast<int>(end));
      steps[static_cast<std::size_t>(op.thread)].push_back(end);
      if (op.kind != OpKind::sync) continue;
      for (int site : model_.sites_of_thread(op.thread))
        bounds[end].push_back({site, model_.finished(site), model_.enqueued(site)});
    }
    std::vector<std::exception_ptr> errors(steps.size());
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    try {
      for (std::size_t t = 1; t < steps.size(); ++t)
        threads.emplace_back([&, t] { run_steps(static_cast<int>(t), steps[t], bounds, go, errors[t]); });
    } catch (...) {
      errors[0] = std::current_exception();  // the threads made so far still run, and are joined
    }
    go.store(true, std::memory_order_release);  // all at once: the fork's signal
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors)
      if (error) std::rethrow_exception(error);  // a CUDA error in any thread: the scenario's error
    if (end < program_.ops.size()) {
      lane.step = op_text(program_.ops[end], static_cast<int>(end) + 1);
      model_.apply(program_.ops[end], static_cast<int>(end));
      check_counts(false, lane);
    }
    return end;
  }

  void run_steps(int thread, const std::vector<std::size_t>& steps,
                 const std::map<std::size_t, std::vector<SiteBounds>>& bounds, const std::atomic<bool>& go,
                 std::exception_ptr& error) {
    try {
      api_.use_device(run_.device());  // a new thread starts on device 0
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      Lane lane{thread, ""};
      for (std::size_t i : steps) {
        lane.step = op_text(program_.ops[i], static_cast<int>(i) + 1);
        execute(program_.ops[i], lane);
        auto expected = bounds.find(i);
        if (expected != bounds.end()) check_bounds(expected->second, lane);
      }
    } catch (...) {
      error = std::current_exception();
    }
  }

  void execute(const Op& op, const Lane& lane) {
    switch (op.kind) {
      case OpKind::capture: capture(op, lane); break;
      case OpKind::nodes: build_nodes(op); break;
      case OpKind::instantiate: keep_exec(op.index, api_.instantiate(graph_of(op.graph))); break;
      case OpKind::clone: {
        Graph copy = api_.clone(graph_of(op.graph));
        std::map<int, cudaGraphNode_t> found;
        for (auto [name, node] : nodes_of(op.graph)) found[name] = api_.find_in_clone(node, copy.get());
        keep_graph(op.index, std::move(copy), std::move(found));
        break;
      }
      case OpKind::graph_set_host:
        forward_.graph_set_host_node(api_, graph_of(op.graph), nodes_of(op.graph).at(op.node), Probe::host_fn(),
                                     probe_->user_data(op.site));
        break;
      case OpKind::exec_set_host:
        forward_.exec_set_host_node(api_, exec_of(op.exec), nodes_of(model_.exec_source(op.exec)).at(op.node),
                                    Probe::host_fn(), probe_->user_data(op.site));
        break;
      case OpKind::exec_update: {
        ApiResult updated = api_.try_exec_update(exec_of(op.exec), graph_of(op.graph));
        if (updated.code != 0)
          throw std::runtime_error(str("step ", lane.step, ": updating the exec from a graph of the same topology returned ",
                                       updated.name, " (", updated.code, "); expected success"));
        break;
      }
      case OpKind::launch: {
        if (lane.thread == 0) {  // alone on the device, it is seen whole (never in a block)
          last_launch_alone_ = model_.idle();
          launch_calls_before_ = probe_->total_calls();
          if (last_launch_alone_ && synchronized_next(op)) arm_stamps(op);
        }
        cudaGraphExec_t exec = exec_of(op.exec);
        for (int t = 0; t < op.times; ++t) {
          run_.set_launch(launched_.fetch_add(1) + 1, launches_);
          api_.launch(exec, streams_.at(op.stream).get());
        }
        break;
      }
      case OpKind::sync:
        for (int s = 0; s < program_.streams; ++s)
          if (op.stream < 0 || op.stream == s) api_.synchronize(streams_[s].get());
        break;
      case OpKind::destroy_graph: take_graph(op.graph); break;  // destroyed here, outside the lock
      case OpKind::destroy_exec: take_exec(op.exec); break;
      case OpKind::stream_callback: add_stream_callback(streams_.at(op.stream).get(), op.site); break;
      case OpKind::fork:
      case OpKind::join: break;  // run_block's
    }
  }

  // The one place a stream callback is added (the probe's StatusFn is its to change). Each
  // stream callback has a site of its own, declared with its stream: the probe checks that
  // the call hands back that stream.
  void add_stream_callback(cudaStream_t stream, int site) {
    forward_.add_stream_callback(api_, stream, Probe::status_fn(),
                                 probe_->stream_callback_user_data(static_cast<std::size_t>(site), stream));
  }

  void enqueue(const Item& item, cudaStream_t stream) {
    if (item.kind == ItemKind::host) {
      forward_.launch_host_func(api_, stream, Probe::host_fn(), probe_->user_data(item.id));
    } else if (item.kind == ItemKind::kernel) {
      launch_kernel(api_, stream, fuzz_tick, cells_ + item.id);
    } else {
      api_.copy_async(scratch_ + item.id, cells_ + item.id, sizeof(unsigned), stream);
    }
  }

  // Stream 0 begins the capture (the harness, or the layer's own begin_capture), the
  // others fork from it through an event and join it back through one each; each item
  // is enqueued on its stream in order. Each thread captures on streams of its own.
  void capture(const Op& op, const Lane& lane) {
    int streams = 1;
    for (const auto& item : op.items) streams = std::max(streams, item.stream + 1);
    const std::vector<Stream>& own = capture_streams_.at(static_cast<std::size_t>(lane.thread));
    std::map<int, cudaGraphNode_t> captured;
    std::vector<Event> events;
    cudaStream_t origin = own[0].get();
    auto enqueue_items = [&] {
      if (streams > 1) {
        events.push_back(api_.make_event());
        api_.record_event(events.back().get(), origin);
        for (int s = 1; s < streams; ++s) api_.wait_event(own[s].get(), events.back().get());
      }
      for (const auto& item : op.items) {
        cudaStream_t stream = own[item.stream].get();
        enqueue(item, stream);
        if (item.kind == ItemKind::host) captured[item.name] = last_captured_node(api_, stream);
      }
      for (int s = 1; s < streams; ++s) {
        events.push_back(api_.make_event());
        api_.record_event(events.back().get(), own[s].get());
        api_.wait_event(origin, events.back().get());
      }
    };
    const CaptureMode mode = parse_capture_mode(capture_mode_name(op.mode));
    Graph graph = op.by_layer ? capture_graph_by_layer(forward_, api_, origin, mode, enqueue_items)
                              : capture_graph(api_, origin, mode, enqueue_items);
    keep_graph(op.index, std::move(graph), std::move(captured));
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
          node = api_.add_kernel_node(graph.get(), deps, fuzz_tick_kernel(), args);
          break;
        case ItemKind::memcpy:
          node = api_.add_memcpy_node(graph.get(), deps, scratch_ + item.id, cells_ + item.id, sizeof(unsigned));
          break;
        case ItemKind::empty:
          node = api_.add_empty_node(graph.get(), deps);
          break;
        case ItemKind::child: node = api_.add_child_graph_node(graph.get(), deps, graph_of(item.id)); break;
      }
      made[item.name] = node;
    }
    keep_graph(op.index, std::move(graph), std::move(made));
  }

  // The graphs and execs by name, shared by a block's threads (each uses only its own,
  // but the maps are one): every look-up and change under one lock, CUDA calls outside it.
  cudaGraph_t graph_of(int g) {
    std::lock_guard<std::mutex> lock(objects_);
    return graphs_.at(g).get();
  }
  cudaGraphExec_t exec_of(int e) {
    std::lock_guard<std::mutex> lock(objects_);
    return execs_.at(e).get();
  }
  std::map<int, cudaGraphNode_t> nodes_of(int g) {
    std::lock_guard<std::mutex> lock(objects_);
    return nodes_.at(g);
  }
  void keep_graph(int g, Graph graph, std::map<int, cudaGraphNode_t> nodes) {
    std::lock_guard<std::mutex> lock(objects_);
    nodes_[g] = std::move(nodes);
    graphs_[g] = std::move(graph);
  }
  void keep_exec(int e, GraphExec exec) {
    std::lock_guard<std::mutex> lock(objects_);
    execs_[e] = std::move(exec);
  }
  Graph take_graph(int g) {
    std::lock_guard<std::mutex> lock(objects_);
    Graph graph = std::move(graphs_.at(g));
    graphs_.erase(g);
    nodes_.erase(g);
    return graph;
  }
  GraphExec take_exec(int e) {
    std::lock_guard<std::mutex> lock(objects_);
    GraphExec exec = std::move(execs_.at(e));
    execs_.erase(e);
    return exec;
  }

  // After a synchronization: each site's calls lie between those certainly finished and
  // those enqueued (exactly those enqueued once every stream is idle).
  void check_counts(bool exact, const Lane& lane) {
    std::vector<SiteBounds> all;
    for (int site = 0; site < program_.sites; ++site)
      all.push_back({site, exact ? model_.enqueued(site) : model_.finished(site), model_.enqueued(site)});
    check_bounds(all, lane);
  }

  void check_bounds(const std::vector<SiteBounds>& sites, const Lane& lane) {
    for (const auto& [site, low, high] : sites) {
      const std::uint64_t calls = probe_->site_calls(static_cast<std::size_t>(site));
      if (calls >= low && calls <= high) continue;
      report_failure(__FILE__, __LINE__,
                     str("[count] after step ", lane.step, ": h", site, " had been called ", calls, " times; expected ",
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
  void check_stamps_of(const Op& launch, const Lane& lane) {
    const Contents& held = model_.exec(launch.exec);
    const std::size_t per_round = held.sites.size();
    if (per_round == 0 || next_snapshot_.load(std::memory_order_acquire) != snapshots_.size()) return;
    for (std::size_t slot = 0; slot < snapshots_.size(); ++slot) {
      const int round = static_cast<int>(slot / per_round);
      ++stamp_checks_;
      if (auto wrong = check_stamps(held, round, stamp_base_, snapshots_[slot])) {
        report_failure(__FILE__, __LINE__, str("[stamp] step ", lane.step, ", launch ", round + 1, ": ", *wrong));
        return;  // one is enough
      }
    }
  }

  // The launches of one exec that ran alone: round after round, each host function once,
  // in an order that respects the graph's edges.
  void check_order(const Op& launch, std::uint64_t first_call, const Lane& lane) {
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
                      str("[order] step ", lane.step, ", launch ", round + 1, ": h", after, " ran before h", before,
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
  std::vector<Stream> streams_;                       // launch streams
  std::vector<std::vector<Stream>> capture_streams_;  // thread -> the 3 it captures on
  PinnedMemory memory_;
  unsigned* cells_ = nullptr;
  unsigned* scratch_ = nullptr;
  std::mutex objects_;  // guards the three maps
  std::map<int, Graph> graphs_;
  std::map<int, std::map<int, cudaGraphNode_t>> nodes_;  // graph -> item name -> node
  std::map<int, GraphExec> execs_;
  std::int64_t launches_ = 0;
  std::atomic<std::int64_t> launched_{0};
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
  return apply_cuts(generate(static_cast<std::uint64_t>(p.get_count("seed")), static_cast<int>(p.get_count("size")),
                             parse_op_set(p.get("ops"))),
                    cuts);
}

// Why the program cannot run through `p`'s layer (it lacks an operation the program
// performs, or launches host functions only in its own captures and the program launches
// some elsewhere), or nullopt when it can.
std::optional<std::string> layer_cannot_run(const Params& p, const Program& program) {
  const LayerNeeds needs = layer_needs(program);
  if (auto lacks = layer_lacks(p, needs.elsewhere)) return lacks;
  return missing_operation(p.get("forward"), needs.in_own_capture);
}

// What planning asks of every selected id (excluded, then control): the program and the
// model's prediction, made once per id and only where the answer depends on them. A
// correct layer with every operation a program may use needs neither, so planning a
// million of its seeds generates no program.
struct PlanFacts {
  std::optional<std::string> excluded;
  std::optional<ExpectedVerdict> control;
};
PlanFacts plan_facts(const Params& p) {
  thread_local std::string last_id;
  thread_local PlanFacts last;
  std::string id;  // every value, those left out of ids included: the key of the last answer
  for (const auto& [axis, value] : p.items()) id += axis + "=" + value + "/";
  if (id == last_id) return last;
  PlanFacts facts;
  const LayerKind layer = layer_kind(p.get("forward"));
  const std::vector<LayerOp> every_op = {LayerOp::launch_host_func,    LayerOp::add_host_node,
                                         LayerOp::add_stream_callback, LayerOp::capture,
                                         LayerOp::graph_set_host_node, LayerOp::exec_set_host_node};
  // A layer that launches only in its own captures needs the program read: which of its
  // launches are in such a capture (layer_cannot_run) is the program's to say.
  if (layer != LayerKind::correct || layer_lacks(p, every_op) || forwarder(p.get("forward")).launches_only_in_own_capture() ||
      p.get("cut") != "none") {
    const Program program = program_of(p);  // a malformed cut is refused here, for every layer
    if (auto lacks = layer_cannot_run(p, program))
      facts.excluded = lacks;
    else if (layer != LayerKind::correct && predict_fault(program, layer))
      facts.control = ExpectedVerdict{{Status::failed, Status::error}, ""};
    else if (layer != LayerKind::correct)
      facts.excluded = "the " + p.get("forward") + " layer's bug is not reached by this program (the model says)";
  }
  last_id = id;
  last = facts;
  return facts;
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
  family.summary =
      "generated programs of graphs, execs, updates, clones and launches (ops=all: also the layer's own captures, "
      "stream callbacks and 2-4 threads), checked against a model";
  family.axes = {
      forward_axis({"frees_on_update", "exec_set_in_graph", "frees_at_end_capture", "racing_registry"}),
      Axis::count("seed", {1, 2, 3, 4, 5, 6, 7, 8}, 1'000'000'000'000),
      Axis::count("size", {40}, 400),
      // came after the ids of graph programs were published: those keep their spelling
      Axis::choice("ops", {op_set_name(OpSet::graph), op_set_name(OpSet::all)}).leave_out_of_ids(op_set_name(OpSet::graph)),
      Axis::word("cut", {"none"}),
  };
  family.body = fuzz_body;
  family.excluded = [](const Params& p) { return plan_facts(p).excluded; };
  family.control = [](const Params& p) { return plan_facts(p).control; };
  family.requirements = [](const Params&) {
    Requirements needs;
    needs.min_runtime = needs.min_driver = 12000;  // cudaGraphExecUpdate's ResultInfo form
    return needs;
  };
  return family;
}

HOSTCB_FAMILY(fuzz_family);

}  // namespace hostcb::cases
