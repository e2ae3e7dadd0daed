#include "reports/json_writer.hpp"

#include <nlohmann/json.hpp>

#include "model/result_json.hpp"

namespace hostcb {

namespace {

nlohmann::ordered_json environment_json(const Environment& env) {
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (const auto& d : env.devices)
    devices.push_back({{"ordinal", d.ordinal},
                       {"name", d.name},
                       {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                       {"uuid", d.uuid}});
  nlohmann::ordered_json adapters = nlohmann::ordered_json::array();
  for (const auto& a : env.adapters) {
    nlohmann::ordered_json versions = nlohmann::ordered_json::object();
    for (const auto& [package, version] : a.versions) versions[package] = version;
    adapters.push_back({{"name", a.name}, {"path", a.path}, {"describe", a.describe}, {"versions", versions}});
  }
  nlohmann::ordered_json out = {{"hostcb_version", env.hostcb_version},
          {"git_revision", env.git_revision},
          {"command_line", env.command_line},
          {"hostname", env.hostname},
          {"os", env.os},
          {"driver", env.driver},
          {"driver_source", env.driver_source},
          {"driver_version", env.driver_version},
          {"runtime_version", env.runtime_version},
          {"toolkit_version", env.toolkit_version},
          {"selected_device", env.selected_device == kAllDevices ? nlohmann::ordered_json("all")
                                                                 : nlohmann::ordered_json(env.selected_device)},
          {"devices", devices},
          {"gpu_usable", env.gpu_usable},
          {"gpu_unusable_reason", env.gpu_unusable_reason},
          {"adapters", adapters}};
  if (!env.shuffle_seed.empty()) out["shuffle_seed"] = env.shuffle_seed;  // run --shuffle: replays its order
  if (env.require_gpu) out["require_gpu"] = true;  // a report of it says red where no GPU was usable
  return out;
}

nlohmann::ordered_json counts_json(const Counts& counts) {
  return {{"total", counts.total()}, {"passed", counts.passed}, {"failed", counts.failed}, {"error", counts.error},
          {"skipped", counts.skipped}, {"xfail", counts.xfail}, {"xpass", counts.xpass}};
}

}  // namespace

std::string results_json(const RunReport& report) {
  nlohmann::ordered_json summary = counts_json(count_results(report.results));
  nlohmann::ordered_json layers = nlohmann::ordered_json::object();  // what each loaded layer ran
  for (const auto& [layer, counts] : counts_per_layer(report)) layers[layer] = counts_json(counts);
  summary["layers"] = layers;
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& r : report.results) results.push_back(result_to_json(r));
  nlohmann::ordered_json doc = {
      {"format", "hostcb-results"},
      {"format_version", kResultsFormatVersion},
      {"started", report.started_utc},
      {"seconds", report.seconds},
      {"environment", environment_json(report.environment)},
      {"summary", summary},
      {"results", results}};
  // Messages can hold anything a callback produced: invalid UTF-8 is replaced, not fatal.
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace hostcb
