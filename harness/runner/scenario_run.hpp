// What a scenario body is handed: its parameters, the CUDA API and forwarding layer it
// should use, a probe to count calls, and a way to report from the launching thread.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "callback/active_scenario.hpp"
#include "model/family.hpp"
#include "cuda/forwarding.hpp"
#include "cuda/graph_api.hpp"
#include "callback/probe.hpp"

namespace hostcb {

class ScenarioRun {
 public:
  ScenarioRun(const Scenario& scenario, ActiveScenario& active, int device);

  const std::string& id() const { return scenario_.id; }
  const Params& params() const { return scenario_.params; }
  const std::string& param(const std::string& axis) const { return scenario_.params.get(axis); }
  std::int64_t count(const std::string& axis) const { return scenario_.params.get_count(axis); }
  int device() const { return device_; }

  // The `api` axis's CUDA API; the `forward` axis's layer (direct when there is none).
  const GraphApi& api() const;
  // The CUDA API named ("runtime" or "driver": a fuzz program's own), unless use_api gave another.
  const GraphApi& api_named(const std::string& name) const;
  Forwarder& forward() const;
  // Runs the body on another GraphApi than its `api` axis names: a CPU stand-in of CUDA
  // (tests/sim_cuda.hpp) running a family's own body where there is no GPU.
  void use_api(const GraphApi& api) { api_ = &api; }
  // Whether the body ran on such a stand-in: then the context it answers for is the
  // stand-in's, and the runner asks it, not CUDA, whether that context is still usable.
  bool on_stand_in() const { return api_ != nullptr; }
  // Who answers for the context the body ran in (GraphApi::context_problem): the stand-in,
  // or else CUDA. Not api(): a family need not have an `api` axis (fuzz's programs name
  // theirs), and both APIs share the primary context, so the runtime's answer is CUDA's.
  const GraphApi& context_api() const { return api_ ? *api_ : runtime_graph_api(); }

  // Creates the scenario's probe and arms it. The runner verifies it after the body,
  // once the device is idle: every scenario must make exactly one.
  Probe& make_probe(std::size_t sites, std::uint64_t calls_per_site);
  Probe* probe() const { return probe_.get(); }

  // The launch the body is working on, of how many: failures it reports carry the
  // number, and a crash or timeout report says where the scenario was.
  void set_launch(std::int64_t launch, std::int64_t launches);
  void set_property(std::string key, std::string value) { properties_.emplace_back(std::move(key), std::move(value)); }
  const std::vector<std::pair<std::string, std::string>>& properties() const { return properties_; }

 private:
  const Scenario& scenario_;
  ActiveScenario& active_;
  int device_;
  const GraphApi* api_ = nullptr;  // set by use_api
  std::unique_ptr<Probe> probe_;
  std::vector<std::pair<std::string, std::string>> properties_;
};

}  // namespace hostcb
