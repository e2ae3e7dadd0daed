#include "runner/scenario_run.hpp"

#include <stdexcept>

#include "callback/progress.hpp"

namespace hostcb {

ScenarioRun::ScenarioRun(const Scenario& scenario, ActiveScenario& active, int device)
    : scenario_(scenario), active_(active), device_(device) {}

const GraphApi& ScenarioRun::api() const { return api_ ? *api_ : graph_api(param("api")); }

const GraphApi& ScenarioRun::api_named(const std::string& name) const { return api_ ? *api_ : graph_api(name); }

Forwarder& ScenarioRun::forward() const {
  return forwarder(scenario_.params.has("forward") ? param("forward") : "direct");
}

void ScenarioRun::set_launch(std::int64_t launch, std::int64_t launches) {
  active_.runner_launch.store(launch, std::memory_order_relaxed);
  ProgressCell& cell = progress_cell();
  cell.launches.store(launches, std::memory_order_relaxed);
  cell.launch.store(launch, std::memory_order_release);
}

Probe& ScenarioRun::make_probe(std::size_t sites, std::uint64_t calls_per_site) {
  if (probe_) throw std::logic_error("a scenario makes one probe");
  probe_ = std::make_unique<Probe>(sites, calls_per_site);
  active_.probe.store(probe_.get(), std::memory_order_release);
  return *probe_;
}

}  // namespace hostcb
