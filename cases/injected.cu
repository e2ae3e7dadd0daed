// injected: a known-bad control. A replayed graph whose first host function fails on
// launch 2 of 3, by throwing or by a failed HOSTCB_EXPECT, on the driver's thread. The
// harness must report it as failed, with the message and launch 2: proof that a failure
// inside a callback is never swallowed. Runs only with --controls.
#include <stdexcept>

#include "cases.hpp"
#include "errors.hpp"
#include "scenario_run.hpp"

namespace hostcb::cases {

namespace {

constexpr std::int64_t kLaunches = 3;
constexpr std::int64_t kFailingLaunch = 2;

void injected_body(ScenarioRun& run) {
  const GraphApi& api = run.api();
  const bool throws = run.param("fault") == "exception";

  Probe& probe = run.make_probe(1, kLaunches);
  probe.set_action(0, HOSTCB_HERE, [throws](std::int64_t launch) {
    if (launch != kFailingLaunch) return;
    if (throws) throw std::runtime_error(str("injected exception on launch ", launch));
    HOSTCB_EXPECT(launch != kFailingLaunch, "injected failed expectation");
  });
  Stream stream = make_stream();
  Graph graph = capture_graph(api, stream.get(), CaptureMode::global, [&] {
    run.forward().launch_host_func(api, stream.get(), Probe::host_fn(), probe.user_data(0));
  });
  GraphExec exec = api.instantiate(graph.get());
  for (std::int64_t launch = 1; launch <= kLaunches; ++launch) {
    run.set_launch(launch);
    api.launch(exec.get(), stream.get());
  }
  api.synchronize(stream.get());
}

}  // namespace

Family injected_family() {
  Family family;
  family.name = "injected";
  family.summary = "control: a host function fails on launch 2 of 3; must be reported as failed with launch 2";
  family.axes = {
      Axis::choice("api", {"driver", "runtime"}),
      Axis::choice("fault", {"exception", "expectation"}),
  };
  family.body = injected_body;
  family.control = true;
  return family;
}

}  // namespace hostcb::cases
