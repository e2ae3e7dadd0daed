#include "sim_cases.hpp"

#include <functional>
#include <optional>

#include "cases/fuzz_kernel.hpp"
#include "cases/layer_rules.hpp"
#include "runner/scenario_run.hpp"
#include "sim_cuda.hpp"

// The shipped families' makers (cases/*.cu).
namespace hostcb::cases {
Family replay_family();
Family update_family();
Family lifetime_family();
Family topology_family();
Family stream_callback_family();
Family stream_host_func_family();
Family concurrency_family();
Family fuzz_family();
}  // namespace hostcb::cases

namespace hostcb::stub {

namespace {

using Reason = std::optional<std::string>;

// The axis values the stand-in runs: one or two launches (or callbacks), the stand-in for
// `api`, and of the layers those whose every call it can take.
void cut_to_the_cpu(Axis& axis) {
  if (axis.name == "api") axis.values = {"sim"};
  if (axis.name == "replays" || axis.name == "callbacks" || axis.name == "calls") axis.values = {"1", "2"};
}

Reason layer_out_of_reach(const Params& p) {
  if (!p.has("forward")) return std::nullopt;
  const std::string& layer = p.get("forward");
  if (layer == "direct" || layer == "oneshot" || layer == "graph_owned" || forwarder(layer).control_only())
    return std::nullopt;
  return "the CPU stand-in of CUDA runs the built-in and known-bad layers; the " + layer + " layer calls CUDA itself";
}

// `real` on the stand-in: its body, checks, exclusions and controls, and `beyond_it` for
// the combinations the stand-in cannot run.
Family on_the_cpu(Family real, std::function<Reason(const Params&)> beyond_it = nullptr) {
  Family family = real;
  family.name = "sim_" + real.name;
  family.needs_gpu = false;
  family.fresh_process = false;
  family.requirements = nullptr;  // the stand-in has every API
  for (auto& axis : family.axes) cut_to_the_cpu(axis);
  family.body = [body = real.body](ScenarioRun& run) {
    run.use_api(sim::api());
    body(run);
  };
  family.excluded = [excluded = real.excluded, beyond_it](const Params& p) -> Reason {
    if (auto why = layer_out_of_reach(p)) return why;
    if (beyond_it)
      if (auto why = beyond_it(p)) return why;
    return excluded ? excluded(p) : std::nullopt;
  };
  return family;
}

Reason held_gate(const Params& p) {
  if (p.get("gate") == "held") return std::string("gate=held holds the stream with a kernel, which the CPU stand-in does not run");
  return std::nullopt;
}

// The fuzz family's generated programs, every operation they draw (ops=all's stream
// callbacks, the layer's own captures and blocks of 2-4 threads included). Its one kernel
// runs as what it does on the device, an atomic add of 1 to its cell, so the model's
// kernel counts and the host functions' stamps are checked here too. Four seeds of each
// `ops` (the family's first), for well under a second of CPU; --axis seed=... runs others.
//
// racing_registry is left out: the model makes a program its control when two threads'
// first records meet in the layer's window (one is lost) and both are called, but that
// is caught only if the lost one is called after the race. Here a launch runs its host
// functions before it returns, so the thread that came second has often made all its
// calls before the one it raced overwrites its slot (seed 1 passed 13 runs in 15).
Family sim_fuzz_family() {
  sim::define_kernel(cases::fuzz_tick_kernel(), [](void** args) -> std::function<void()> {
    unsigned* cell = *static_cast<unsigned**>(args[0]);
    return [cell] { __atomic_fetch_add(cell, 1u, __ATOMIC_ACQ_REL); };
  });
  Family family = on_the_cpu(cases::fuzz_family(), [](const Params& p) -> Reason {
    if (p.get("forward") == "racing_registry")
      return std::string(
          "the racing_registry layer's lost record may have made all its calls before the race on the CPU stand-in, "
          "whose launches run their host functions before they return");
    return std::nullopt;
  });
  for (auto& axis : family.axes)
    if (axis.name == "seed") axis.values = {"1", "2", "3", "4"};
  return family;
}

// A stream callback waiting behind a fault: the stand-in's stream carries the fault's
// sticky error, and the callback must be handed that status, its stream and its userData.
Family fault_status_family() {
  constexpr int kFault = 719;
  Family family;
  family.name = "sim_fault_status";
  family.summary = "a stream callback behind a fault (the CPU stand-in's sticky error) gets its stream, the status and its userData";
  family.needs_gpu = false;
  family.axes = {cases::forward_axis()};
  family.excluded = layer_out_of_reach;
  family.body = [](ScenarioRun& run) {
    run.use_api(sim::api());
    const GraphApi& api = run.api();
    Probe& probe = run.make_probe(1, 1);
    probe.expect_callback_status(kFault);
    Stream stream = api.make_stream();
    sim::fail_stream(stream.get(), kFault);
    run.set_launch(1, 1);
    run.forward().add_stream_callback(api, stream.get(), Probe::status_fn(), probe.stream_callback_user_data(0, stream.get()));
  };
  const auto always = [](const Params&) { return true; };
  cases::add_known_bad(family, {{"hands_other_stream", always, cases::caught_by("[stream]")},
                                {"drops_status", always, cases::caught_by("[status]")},
                                {"hands_other_user_data", always, cases::caught_by("[userdata]")}});
  return family;
}

// A scenario that leaves the whole context with a sticky error, as a device fault through
// a broken layer does: it ends in error, naming the error; its worker retires, and every
// scenario after it runs in a fresh one, as if it had never run (tests/e2e_sticky_context.sh).
Family leaves_fault_family() {
  constexpr int kFault = 700;  // cudaErrorIllegalAddress's number
  Family family;
  family.name = "sim_leaves_fault";
  family.summary = "one host function, then the CPU stand-in's context is left holding a sticky error, as a device fault leaves it";
  family.needs_gpu = false;
  family.axes = {Axis::count("copy", {1}, 10000)};
  family.body = [](ScenarioRun& run) {
    run.use_api(sim::api());
    const GraphApi& api = run.api();
    Probe& probe = run.make_probe(1, 1);
    Stream stream = api.make_stream();
    run.set_launch(1, 1);
    api.launch_host_func(stream.get(), Probe::host_fn(), probe.user_data(0));
    sim::fail_context(kFault);
  };
  return family;
}

}  // namespace

void register_sim_cases(Registry& registry) {
  registry.add(on_the_cpu(cases::replay_family()));
  registry.add(on_the_cpu(cases::update_family()));
  registry.add(on_the_cpu(cases::lifetime_family()));
  registry.add(on_the_cpu(cases::topology_family(), [](const Params& p) -> Reason {
    if (p.get("shape") == "mixed") return std::string("shape=mixed needs the stamp kernels, which the CPU stand-in does not run");
    return std::nullopt;
  }));
  registry.add(on_the_cpu(cases::stream_callback_family(), held_gate));
  registry.add(on_the_cpu(cases::stream_host_func_family(), held_gate));
  registry.add(on_the_cpu(cases::concurrency_family()));
  registry.add(fault_status_family());
  registry.add(leaves_fault_family());
  registry.add(sim_fuzz_family());
}

}  // namespace hostcb::stub
