// lifetime: what a host node needs stays alive as long as something can launch it.
//
//   graph_destroyed  the graph is destroyed right after instantiation; the exec still
//                    calls both host functions on every launch
//   two_execs        two execs of one graph, each counted on its own; the second still
//                    works after the graph and the first are gone
//   clone            a clone of the graph, the original destroyed, launched N times
//   child_graph      the host functions in a graph held by a child-graph node
//   user_object      a CUDA user object tied to the graph: its destructor runs exactly
//                    once, after the last exec is destroyed and its launches (queued, each
//                    host function slowed to 2 ms) have all finished; never before
//   many_graphs      one (function, userData) built into three graphs, as a program that
//                    registers one callback and captures it every iteration: the first
//                    graph and its exec are destroyed before the other two launch
//   many_graphs_kept the same, but the first exec outlives its graph and the others'
//                    first launches; then it goes too, and they launch again
//   thread_gone      the graph built on a thread of its own, joined before the graph is
//                    instantiated and launched from the scenario's thread: nothing the host
//                    functions need may go with the thread that enqueued them
#include <atomic>
#include <chrono>
#include <exception>
#include <thread>

#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "model/errors.hpp"
#include "cases/host_chain.hpp"
#include "runner/scenario_run.hpp"
#include "callback/wait.hpp"

namespace hostcb::cases {

namespace {

// What the user object's destructor saw. Heap-allocated and freed only once the destructor
// ran, so a destructor that comes late never writes into a finished scenario.
struct Witness {
  std::atomic<const Probe*> probe{nullptr};  // cleared when the scenario gives up waiting
  std::atomic<int> destroyed{0};
  std::atomic<std::uint64_t> calls_when_destroyed{0};
};

void destroy_witness(void* opaque) {
  auto* witness = static_cast<Witness*>(opaque);
  if (const Probe* probe = witness->probe.load()) witness->calls_when_destroyed.store(probe->total_calls());
  witness->destroyed.fetch_add(1);
}

void check_user_object(ScenarioRun& run, Graph graph, cudaStream_t stream, std::int64_t launches) {
  const GraphApi& api = run.api();
  Probe& probe = *run.probe();
  probe.set_action(0, HOSTCB_HERE, [](std::int64_t) { std::this_thread::sleep_for(std::chrono::milliseconds(2)); });
  auto* witness = new Witness;
  witness->probe = &probe;
  api.retain_with_graph(graph.get(), witness, &destroy_witness);

  GraphExec first = api.instantiate(graph.get());
  GraphExec second = api.instantiate(graph.get());
  graph.reset();
  launch_and_check(run, first.get(), stream, launches, 1);
  first.reset();
  launch_and_check(run, second.get(), stream, launches, 1);
  HOSTCB_EXPECT(witness->destroyed == 0, "[lifetime] the user object was destroyed while an exec of its graph was alive");

  // Queue the last launches, then destroy the exec at once: the destructor must wait for them.
  for (std::int64_t launch = 1; launch <= launches; ++launch) {
    run.set_launch(launch, launches);
    api.launch(second.get(), stream);
  }
  second.reset();
  const std::uint64_t all_calls = 3 * static_cast<std::uint64_t>(launches);
  bool ran = wait_until([&] { return witness->destroyed > 0; }, 5.0);
  api.synchronize(stream);
  HOSTCB_EXPECT(ran, "[lifetime] the user object's destructor had not run 5 s after the last exec was destroyed");
  if (!ran) {
    witness->probe = nullptr;  // and leak it: a late destructor may still write to it
    return;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // room for a second, wrong call
  HOSTCB_EXPECT(witness->destroyed == 1, str("[lifetime] the user object's destructor ran ", witness->destroyed.load(), " times"));
  HOSTCB_EXPECT(witness->calls_when_destroyed == all_calls,
                str("[lifetime] the user object's destructor ran after ", witness->calls_when_destroyed.load(), " of ", all_calls,
                    " host-function calls: before the exec's launches had finished"));
  delete witness;
}

void lifetime_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const std::string& what = run.param("case");
  const std::string& build = run.param("build");
  const std::int64_t launches = run.count("replays");
  const auto n = static_cast<std::uint64_t>(launches);
  Stream stream = api.make_stream();

  if (what == "graph_destroyed") {
    run.make_probe(2, n);
    Graph graph = build_host_chain(run, stream.get(), build, 0, 2);
    GraphExec exec = api.instantiate(graph.get());
    graph.reset();
    launch_and_check(run, exec.get(), stream.get(), launches, 2);
  } else if (what == "two_execs") {
    run.make_probe(1, 2 * n + 1);
    Graph graph = build_host_chain(run, stream.get(), build, 0, 1);
    GraphExec first = api.instantiate(graph.get());
    GraphExec second = api.instantiate(graph.get());
    launch_and_check(run, first.get(), stream.get(), launches, 1);
    launch_and_check(run, second.get(), stream.get(), launches, 1);
    graph.reset();
    first.reset();
    launch_and_check(run, second.get(), stream.get(), 1, 1);
  } else if (what == "clone") {
    run.make_probe(2, n);
    Graph original = build_host_chain(run, stream.get(), build, 0, 2);
    Graph copy = api.clone(original.get());
    original.reset();
    GraphExec exec = api.instantiate(copy.get());
    launch_and_check(run, exec.get(), stream.get(), launches, 2);
  } else if (what == "child_graph") {
    run.make_probe(2, n);
    Graph child = build_host_chain(run, stream.get(), build, 0, 2);
    Graph parent = api.create_graph();
    api.add_child_graph_node(parent.get(), {}, child.get());
    child.reset();
    GraphExec exec = api.instantiate(parent.get());
    launch_and_check(run, exec.get(), stream.get(), launches, 2);
  } else if (what == "many_graphs" || what == "many_graphs_kept") {
    const bool kept = what == "many_graphs_kept";
    run.make_probe(1, (kept ? 5 : 3) * n);
    // All three built before any is destroyed: a layer that shares one record among them
    // must keep it for the last graph that holds it, not the first.
    Graph first = build_host_chain(run, stream.get(), build, 0, 1);
    Graph second = build_host_chain(run, stream.get(), build, 0, 1);
    Graph third = build_host_chain(run, stream.get(), build, 0, 1);
    GraphExec first_exec = api.instantiate(first.get());
    GraphExec second_exec = api.instantiate(second.get());
    GraphExec third_exec = api.instantiate(third.get());
    second.reset();
    third.reset();
    // CUDA releases a graph's user objects on a thread of its own, when it likes: a witness
    // tied to the first graph says when what it held is gone, before the others launch.
    auto* released = new std::atomic<bool>(false);
    api.retain_with_graph(first.get(), released, [](void* flag) { static_cast<std::atomic<bool>*>(flag)->store(true); });
    launch_and_check(run, first_exec.get(), stream.get(), launches, 1);
    first.reset();
    if (kept) {
      launch_and_check(run, second_exec.get(), stream.get(), launches, 1);
      launch_and_check(run, third_exec.get(), stream.get(), launches, 1);
    }
    first_exec.reset();
    if (wait_until([&] { return released->load(); }, 5.0))
      delete released;  // else leaked: a late release may still write it
    else
      HOSTCB_EXPECT(false, "[lifetime] the first graph's user objects were not released 5 s after it and its exec were destroyed");
    launch_and_check(run, second_exec.get(), stream.get(), launches, 1);
    launch_and_check(run, third_exec.get(), stream.get(), launches, 1);
  } else if (what == "thread_gone") {
    run.make_probe(1, n);
    Graph graph;
    std::exception_ptr failed;
    std::thread builder([&] {
      try {
        api.use_device(run.device());  // a new thread starts on device 0
        graph = build_host_chain(run, stream.get(), build, 0, 1);
      } catch (...) {
        failed = std::current_exception();
      }
    });
    builder.join();
    if (failed) std::rethrow_exception(failed);
    GraphExec exec = api.instantiate(graph.get());
    graph.reset();
    launch_and_check(run, exec.get(), stream.get(), launches, 1);
  } else {  // user_object
    run.make_probe(1, 3 * n);
    check_user_object(run, build_host_chain(run, stream.get(), build, 0, 1), stream.get(), launches);
  }
}

}  // namespace

Family lifetime_family() {
  Family family;
  family.name = "lifetime";
  family.summary =
      "graph destroyed after instantiation, two execs, clone, child graph, user object destroyed once, last; "
      "one host function in many graphs; a graph built on a thread that has gone";
  family.axes = {
      api_axis(),
      forward_axis(),
      Axis::choice("case", {"graph_destroyed", "two_execs", "clone", "child_graph", "user_object", "many_graphs",
                            "many_graphs_kept", "thread_gone"}),
      build_axis(),
      Axis::count("replays", {1, 2, 5}),
  };
  family.body = lifetime_body;
  family.excluded = [](const Params& p) { return layer_lacks(p); };
  // two_execs and user_object launch one graph's host nodes from two execs: a second
  // call even with one launch each.
  family.control = [](const Params& p) {
    const std::string& what = p.get("case");
    return oneshot_control(p, what == "two_execs" || what == "user_object" || what == "many_graphs_kept" ||
                                  p.get_count("replays") >= 2);
  };
  add_known_bad(family, {frees_capture_at_end(), first_graph_owns(),
                         {"records_per_thread", [](const Params& p) { return p.get("case") == "thread_gone"; },
                          fails_or_crashes()}});
  return family;
}

HOSTCB_FAMILY(lifetime_family);

}  // namespace hostcb::cases
