#include "app/rerun_commands.hpp"

#include <algorithm>

#include "app/options.hpp"
#include "cuda/forwarding.hpp"
#include "model/status.hpp"
#include "repro/family_steps.hpp"

namespace hostcb {

namespace {

// The --adapter repro needs for the layer named `forward`: none for forward=direct or a
// shipped module (LAYER:ENTRY names LAYER_ENTRY, which repro finds by itself); else the
// run's one plugin, or the plugin whose file names the layer.
std::string repro_adapter(const std::string& forward, const std::vector<std::string>& adapters) {
  std::vector<std::string> plugins;
  for (const auto& spec : adapters) {
    std::string path = spec.substr(0, spec.find('@'));
    std::string as_module = path;
    for (auto& c : as_module) c = c == ':' ? '_' : c;
    if (as_module == forward) return "";
    // The Python adapter library with its module named: repro reads that module.
    if (spec.find("module=hostcb_layers." + forward) != std::string::npos) return spec;
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".so") == 0) plugins.push_back(spec);
  }
  if (forward == "direct") return "";
  for (const auto& spec : plugins)
    if (spec.substr(0, spec.find('@')).find(forward) != std::string::npos) return spec;
  return plugins.size() == 1 ? plugins.front() : "";
}

}  // namespace

void add_rerun_commands(Result& r, const RerunContext& context) {
  if (!is_bad(r.status)) return;
  const std::vector<std::string>& adapters = context.adapters;
  std::string rerun = std::string("hostcb run ") + (context.control ? "--controls " : "") + "--filter " + shell_quoted({r.id});
  for (const auto& axis : context.axes) rerun += " --axis " + shell_quoted({axis});
  for (const auto& spec : adapters) rerun += " --adapter " + shell_quoted({spec});
  r.properties.emplace_back("rerun", rerun);
  if (!r.params.has("forward") || !repro::has_steps(r.family, r.params)) return;
  // A reproducer is of CUDA itself (direct) or of a layer from outside hostcb, not of
  // hostcb's own known-bad layers.
  const std::string& forward = r.params.get("forward");
  const auto outside = registered_adapters();
  if (forward != "direct" &&
      std::none_of(outside.begin(), outside.end(), [&](const Forwarder* layer) { return forward == layer->name(); }))
    return;
  const std::string adapter = repro_adapter(forward, adapters);
  r.properties.emplace_back("reproduce",
                            "hostcb repro " + shell_quoted({r.id}) + (adapter.empty() ? "" : " --adapter " + shell_quoted({adapter})));
}

}  // namespace hostcb
