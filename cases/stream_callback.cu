// stream_callback: cudaStreamAddCallback / cuStreamAddCallback, enqueued n times on one
// stream. Each callback must run exactly once, in stream order, with a success status.
#include "cases/cases.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

void stream_callback_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const auto callbacks = static_cast<std::size_t>(run.count("callbacks"));

  Probe& probe = run.make_probe(callbacks, 1);
  probe.expect_in_order();
  Stream stream = make_stream();
  for (std::size_t i = 0; i < callbacks; ++i) api.add_stream_callback(stream.get(), Probe::status_fn(), probe.user_data(i));
  api.synchronize(stream.get());
}

}  // namespace

Family stream_callback_family() {
  Family family;
  family.name = "stream_callback";
  family.summary = "n stream callbacks on one stream: each runs once, in order, with a success status";
  family.axes = {
      api_axis(),
      Axis::count("callbacks", {1, 5, 100}),
  };
  family.body = stream_callback_body;
  return family;
}

HOSTCB_FAMILY(100, stream_callback_family);

}  // namespace hostcb::cases
