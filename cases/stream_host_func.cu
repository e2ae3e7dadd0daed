// stream_host_func: host functions enqueued on a plain stream (no graph) through a
// forwarding layer, n times. Each must run exactly once, in order, and a layer's records
// must all be freed once they have run: a stream calls each host function once, so a
// layer that frees after the call is right here, and one that never frees leaks. With
// gate=held the stream is held shut until every host function is enqueued and the
// caller's stack is overwritten (stream_gate.cuh), and the enqueues must return while it
// is ([async]).
#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "cases/stream_gate.cuh"
#include "cases/host_chain.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

void stream_host_func_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  Forwarder& forward = run.forward();
  const auto calls = static_cast<std::size_t>(run.count("calls"));
  const std::int64_t records_before = forward.live_records();

  Probe& probe = run.make_probe(calls, 1);
  probe.expect_in_order();
  Stream stream = api.make_stream();
  StreamGate gate;
  if (gate_held(run.params())) gate.hold(stream.get());
  {
    EnqueuesReturn returned(gate, "the layer's launch_host_func");
    for (std::size_t i = 0; i < calls; ++i) forward.launch_host_func(api, stream.get(), Probe::host_fn(), probe.user_data(i));
  }
  scrub_stack();
  gate.open();
  api.synchronize(stream.get());

  expect_records_freed(forward, records_before, "after their host functions ran");
}

}  // namespace

Family stream_host_func_family() {
  Family family;
  family.name = "stream_host_func";
  family.summary = "n host functions on a plain stream, the stream held or not: each runs once, in order, and is freed";
  family.axes = {
      api_axis(),
      forward_axis(),
      Axis::choice("gate", {"open", "held"}),
      Axis::count("calls", {1, 5, 100}),
  };
  family.body = stream_host_func_body;
  family.excluded = [](const Params& p) { return layer_lacks(p, {LayerOp::launch_host_func}); };
  add_known_bad(family, {{"waits_for_stream", gate_held, caught_by("[async]")}});
  return family;
}

HOSTCB_FAMILY(stream_host_func_family);

}  // namespace hostcb::cases
