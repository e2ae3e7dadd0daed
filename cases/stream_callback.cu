// stream_callback: cudaStreamAddCallback / cuStreamAddCallback through a forwarding
// layer, n times on one stream. Each callback must run exactly once, in stream order,
// with the stream it was enqueued on, a success status and its own userData. With gate=held the stream is held shut until every callback is
// enqueued and the caller's stack is overwritten (stream_gate.cuh), and the enqueues must
// return while it is ([async]).
#include "cases/cases.hpp"
#include "cases/layer_rules.hpp"
#include "cases/stream_gate.cuh"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

void stream_callback_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const auto callbacks = static_cast<std::size_t>(run.count("callbacks"));

  Probe& probe = run.make_probe(callbacks, 1);
  probe.expect_in_order();
  Stream stream = api.make_stream();
  StreamGate gate;
  if (gate_held(run.params())) gate.hold(stream.get());
  {
    EnqueuesReturn returned(gate, "the layer's add_stream_callback");
    for (std::size_t i = 0; i < callbacks; ++i)
      run.forward().add_stream_callback(api, stream.get(), Probe::status_fn(), probe.stream_callback_user_data(i, stream.get()));
  }
  scrub_stack();
  gate.open();
  api.synchronize(stream.get());
}

}  // namespace

Family stream_callback_family() {
  Family family;
  family.name = "stream_callback";
  family.summary = "n stream callbacks on one stream, the stream held or not: each runs once, in order, with its stream, success and its userData";
  family.axes = {
      api_axis(),
      forward_axis(),
      Axis::choice("gate", {"open", "held"}),
      Axis::count("callbacks", {1, 5, 100}),
  };
  family.body = stream_callback_body;
  family.excluded = [](const Params& p) { return layer_lacks(p, {LayerOp::add_stream_callback}); };
  // Stream callbacks handed another stream than the one they were enqueued on, or another userData.
  const auto always = [](const Params&) { return true; };
  add_known_bad(family, {{"hands_other_stream", always, caught_by("[stream]")},
                         {"hands_other_user_data", always, caught_by("[userdata]")},
                         {"waits_for_stream", gate_held, caught_by("[async]")}});
  return family;
}

HOSTCB_FAMILY(stream_callback_family);

}  // namespace hostcb::cases
