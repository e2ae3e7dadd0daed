// Options and helpers several subcommands share: the selection, the device, execution
// limits, adapters, and the environment a command runs in.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "exec/supervisor.hpp"
#include "model/defaults.hpp"
#include "model/enum_table.hpp"
#include "model/environment.hpp"
#include "model/registry.hpp"
#include "reports/report_targets.hpp"
#include "reports/utc_time.hpp"  // utc_now()

namespace hostcb {

// How --filter and --axis select, for list's and run's --help.
inline constexpr const char* kFilterHelp =
    R"(Filters (gtest style): --filter 'POS[:POS...][-NEG[:NEG...]]' selects scenario ids matching any POS
glob and no NEG glob ('*' any run, '?' one character); a bare family name means every scenario of
it. Each pattern must match something (run --allow-empty: need not). --filter may be repeated: the
positive patterns are joined with ':', and so are the negative ones. Examples:
  hostcb run --filter replay
  hostcb run --filter 'replay/*:stream_callback/*-*replays=100*'
Axis overrides replace an axis's values wherever it exists: --axis replays=1,7; --axis forward=X
also leaves out the families without a forward axis (only what goes through layer X runs).)";

struct SelectionOptions {
  std::vector<std::string> filters;  // --filter, each given: joined_filter() makes one of them
  std::vector<std::string> axes;
  bool controls = false;
  bool allow_empty = false;  // run --allow-empty: patterns may match nothing, the plan may be empty
};
// One filter of several --filter: "a-x" and "b-y" are "a:b-x:y" (a missing positive part
// is '*'); one is itself; none is "*".
std::string joined_filter(const std::vector<std::string>& filters);
void add_selection_options(CLI::App* command, SelectionOptions& options);
std::vector<Scenario> make_plan(const Registry& registry, const SelectionOptions& options);
// Refuses `passes` (--repeat) runs of `selected` scenarios past kMaxPlannedScenarios.
void check_plan_size(std::size_t selected, int passes, const char* option);

// --device: an ordinal (0 to 9999), or with `allow_all` also "all".
inline constexpr const char* kAllDevicesName = "all";
void add_device_option(CLI::App* command, std::string& device, bool allow_all);
int device_ordinal(const std::string& text);  // throws UsageError for anything else, "all" included

// An option that takes one of an enum's names: validated, shown in --help and parsed from
// the enum's one table (model/enum_table.hpp).
template <class E, std::size_t N>
CLI::Option* add_enum_option(CLI::App* command, const std::string& name, E& value, const EnumTable<E, N>& table,
                             const std::string& help) {
  return command
      ->add_option_function<std::string>(
          name, [&value, &table](const std::string& text) { value = table.parse(text); }, help)
      ->check(CLI::IsMember(table.names()).description(""))
      ->default_str(table.name(value));
}

struct ExecutionCliOptions {
  Isolation isolation = Isolation::worker;
  double timeout_s = kDefaultTimeoutSeconds;
  std::string workers = "auto";  // -j: a count, or "auto"
  bool no_standby = false;        // --no-standby: no worker started ahead (to measure what one costs)
  bool no_poison = false;         // --no-poison: workers without the allocators' poisoning (exec/poisoned_frees.hpp)
};
void add_execution_options(CLI::App* command, ExecutionCliOptions& options);
// A number of seconds from `low` to `high`; NaN, infinity and other words refused.
CLI::Validator seconds_between(double low, double high);
ExecutionOptions execution_options(const ExecutionCliOptions& options, const std::vector<std::string>& adapters);
// -j's workers on `devices` devices: the count given, or for "auto" one per core, at most
// kAutoWorkersPerDevice on each device (at least one).
inline constexpr unsigned kAutoWorkersPerDevice = 8;
inline constexpr unsigned kMaxWorkers = 256;
unsigned worker_count(const std::string& text, std::size_t devices);

void add_adapter_option(CLI::App* command, std::vector<std::string>& adapters);

// Captures the environment, with the loaded adapters, refusing a device ordinal past the
// visible ones (and, with none visible, any ordinal but 0): a UsageError.
Environment environment_for(int device, const std::string& command_line);
// The devices --device names: one ordinal, or every visible one for "all" (device 0 when
// none is visible, so that every scenario is skipped with the reason).
std::vector<int> devices_for(const std::string& spec, const Environment& env);

// A report file option: FILE; "given" is decided by the option's count, so that an empty
// path (--junit '') is refused, not ignored.
struct ReportOption {
  std::string path;
  CLI::Option* option = nullptr;
  std::string what;  // "JUnit report"
  bool given() const { return option && option->count() > 0; }
};
void add_report_option(CLI::App* command, ReportOption& report, const std::string& name, const std::string& help);
// Refuses, before anything runs, any given report path that cannot be written or that
// names one of the command's `inputs` (reports/report_targets.hpp).
void check_report_options(const std::vector<const ReportOption*>& reports, const std::vector<ReportTarget>& inputs = {});
// The files a list of --adapter PATH[@OPTIONS] reads, as inputs for check_report_options.
std::vector<ReportTarget> adapter_inputs(const std::vector<std::string>& adapters);

std::string shell_quoted(const std::vector<std::string>& args);

}  // namespace hostcb
