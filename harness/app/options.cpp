#include "app/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <thread>

#include "cuda/adapter_loader.hpp"
#include "cuda/environment_capture.hpp"
#include "exec/interrupt.hpp"
#include "model/errors.hpp"
#include "model/filter.hpp"
#include "protocol/worker_protocol.hpp"

namespace hostcb {

void add_selection_options(CLI::App* command, SelectionOptions& options) {
  command
      ->add_option("--filter,-f", options.filters,
                   "ids to select: 'POS[:POS][-NEG[:NEG]]' globs, or a family name (repeatable: joined)")
      ->type_name("PATTERNS")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->default_str("*");
  command->add_option("--axis,-a", options.axes, "replace an axis's values: name=v1,v2 (once per axis)")
      ->type_name("NAME=VALUES");
  command->add_flag("--controls", options.controls, "include known-bad controls (they are meant to fail)");
}

std::string joined_filter(const std::vector<std::string>& filters) {
  if (filters.empty()) return "*";
  // Each filter by its own rules first: joined, '-' (an unset $NEG after the dash) would
  // lose its empty pattern and leave a larger run.
  for (const std::string& filter : filters) Filter::parse(filter);
  if (filters.size() == 1) return filters.front();
  std::string positive, negative;
  for (const std::string& filter : filters) {
    const std::size_t dash = filter.find('-');
    const std::string pos = filter.substr(0, dash), neg = dash == std::string::npos ? "" : filter.substr(dash + 1);
    positive += (positive.empty() ? "" : ":") + (pos.empty() && !filter.empty() ? std::string("*") : pos);
    if (!neg.empty() || dash != std::string::npos) negative += (negative.empty() ? "" : ":") + neg;
  }
  return negative.empty() ? positive : positive + "-" + negative;
}

std::vector<Scenario> make_plan(const Registry& registry, const SelectionOptions& options) {
  Selection selection;
  selection.filter = joined_filter(options.filters);
  selection.allow_empty = options.allow_empty;
  selection.include_controls = options.controls;
  for (const auto& text : options.axes) selection.overrides.push_back(parse_axis_override(text));
  // ^C stops a long plan; a signal that came before this plan began does not (it arrived
  // as main started: the run goes on to report every scenario skipped as interrupted).
  const bool signalled_before = interrupt_signal() != 0;
  selection.interrupted = [signalled_before] { return !signalled_before && interrupt_signal() != 0; };
  return registry.plan(selection);
}

void check_plan_size(std::size_t selected, int passes, const char* option) {
  if (static_cast<std::uint64_t>(selected) * static_cast<std::uint64_t>(passes) > kMaxPlannedScenarios)
    throw UsageError(str(option, " ", passes, " passes over ", selected, " scenarios are more than the ",
                         kMaxPlannedScenarios, " one run plans; ask for fewer passes or scenarios"));
}

int device_ordinal(const std::string& text) {
  int value = -1;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0 || value > 9999)
    throw UsageError("--device '" + text + "' is not a device ordinal (0 to 9999)");
  return value;
}

void add_device_option(CLI::App* command, std::string& device, bool allow_all) {
  // Only run takes every device; the others would silently run on device 0.
  auto check = [allow_all, name = command->get_name()](const std::string& value) -> std::string {
    if (value == kAllDevicesName)
      return allow_all ? "" : "'all' is for run (the selection on every device in turn); " + name + " runs on one: give its ordinal";
    try {
      device_ordinal(value);
      return "";
    } catch (const UsageError&) {
      return "'" + value + "' is " + (allow_all ? "neither a device ordinal (0 to 9999) nor 'all'" : "not a device ordinal (0 to 9999)");
    }
  };
  command
      ->add_option("--device,-d", device,
                   allow_all ? "CUDA device ordinal, or 'all': the whole selection on every visible device in turn"
                             : "CUDA device ordinal")
      ->type_name(allow_all ? "ORDINAL|all" : "ORDINAL")
      ->check(CLI::Validator(check, ""))
      ->capture_default_str();
}

CLI::Validator seconds_between(double low, double high) {
  return CLI::Validator(
      [low, high](const std::string& value) -> std::string {
        double v = 0;
        try {
          std::size_t used = 0;
          v = std::stod(value, &used);
          if (used != value.size()) throw std::invalid_argument(value);
        } catch (const std::exception&) {
          return "'" + value + "' is not a number of seconds";
        }
        // NaN passes every comparison; infinity is no time limit.
        if (!std::isfinite(v) || v < low || v > high) return str("'", value, "' is not between ", low, " and ", high, " seconds");
        return "";
      },
      "");
}

void add_execution_options(CLI::App* command, ExecutionCliOptions& options) {
  add_enum_option(command, "--isolate", options.isolation, kIsolations,
                  "worker (default), scenario or none (in this process, for a debugger)")
      ->type_name("MODE");
  command->add_option("--timeout", options.timeout_s, "seconds a scenario may take, unless its family sets its own")
      ->type_name("SECONDS")
      ->check(seconds_between(0.1, 86400))
      ->capture_default_str();
  command
      ->add_option("--jobs,-j", options.workers,
                   str("workers side by side, each its own process and CUDA context; auto: one per core, at most ",
                       kAutoWorkersPerDevice, " a device (scenarios that need the device to itself run alone)"))
      ->type_name("N|auto")
      ->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            try {
              worker_count(value, 1);
              return "";
            } catch (const UsageError& e) {
              return e.what();
            }
          },
          ""))
      ->capture_default_str();
  command->add_flag("--no-poison", options.no_poison,
                    "start workers without the allocators' poisoning of freed memory (MALLOC_PERTURB_, "
                    "PYTHONMALLOC=debug), which is on so that a layer calling through a record it freed fails at once");
  command->add_flag("--no-standby", options.no_standby,
                    "start no worker ahead: a crash or timeout then waits for a cold start (to measure a standby's cost)");
}

unsigned worker_count(const std::string& text, std::size_t devices) {
  if (text == "auto") {
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    return static_cast<unsigned>(std::min<std::size_t>(cores, kAutoWorkersPerDevice * std::max<std::size_t>(1, devices)));
  }
  unsigned value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 1 || value > kMaxWorkers)
    throw UsageError(str("-j '", text, "' is neither a number of workers (1 to ", kMaxWorkers, ") nor 'auto'"));
  return value;
}

ExecutionOptions execution_options(const ExecutionCliOptions& options, const std::vector<std::string>& adapters) {
  ExecutionOptions execution;
  execution.isolation = options.isolation;
  execution.timeout_s = options.timeout_s;
  execution.standby = !options.no_standby;
  execution.worker_command = protocol::worker_command("/proc/self/exe", adapters);
  return execution;
}

void add_adapter_option(CLI::App* command, std::vector<std::string>& adapters) {
  command->add_option("--adapter", adapters,
                      "load a forwarding layer (adapter ABI, hostcb/adapter.h): PATH[@OPTIONS] (repeatable)")
      ->type_name("PATH[@OPTIONS]");
}

Environment environment_for(int device, const std::string& command_line) {
  Environment env = capture_environment(device, command_line);
  env.adapters = loaded_adapters();
  // Device 0, the default, on a machine without a GPU skips every scenario with the
  // reason (exit 77); any other ordinal past the visible devices is a typo: refused.
  if (device > 0 && device >= static_cast<int>(env.devices.size()))
    throw UsageError(str("--device ", device, ": only ", env.devices.size(), " device(s) are visible"));
  return env;
}

std::vector<int> devices_for(const std::string& spec, const Environment& env) {
  if (spec != kAllDevicesName) return {device_ordinal(spec)};
  std::vector<int> all;
  for (const auto& d : env.devices) all.push_back(d.ordinal);
  if (all.empty()) all.push_back(0);
  return all;
}

void add_report_option(CLI::App* command, ReportOption& report, const std::string& name, const std::string& help) {
  report.option = command->add_option(name, report.path, help)->type_name("FILE");
}

void check_report_options(const std::vector<const ReportOption*>& reports, const std::vector<ReportTarget>& inputs) {
  std::vector<ReportTarget> targets;
  for (const ReportOption* r : reports)
    if (r->given()) targets.push_back({r->path, r->what});
  check_report_targets(targets, inputs);
}

std::vector<ReportTarget> adapter_inputs(const std::vector<std::string>& adapters) {
  std::vector<ReportTarget> inputs;
  for (const auto& spec : adapters) inputs.push_back({split_adapter_spec(spec).path, "adapter"});
  return inputs;
}

std::string shell_quoted(const std::vector<std::string>& args) {
  std::string line;
  for (const auto& arg : args) {
    if (!line.empty()) line += ' ';
    if (!arg.empty() && arg.find_first_of(" \t\n'\"\\$*?[]{}();&|<>`!#~") == std::string::npos) {
      line += arg;
      continue;
    }
    line += '\'';
    for (char c : arg) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

}  // namespace hostcb
