#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>

#include "active_scenario.hpp"
#include "atomic_file.hpp"
#include "console_reporter.hpp"
#include "environment.hpp"
#include "errors.hpp"
#include "json_writer.hpp"
#include "junit_writer.hpp"
#include "overhead.hpp"
#include "runner.hpp"

namespace hostcb {

namespace {

constexpr const char* kFooter = R"(Filters (gtest style): --filter 'POS[:POS...][-NEG[:NEG...]]' selects scenario ids
matching any POS glob and no NEG glob ('*' any run, '?' one character). Example:
  hostcb run --filter 'replay/*:stream_callback/*-*replays=100*'
Axis overrides replace an axis's values wherever it exists: --axis replays=1,7
Exit codes: 0 passed, 1 failed or error, 2 usage error, 77 nothing ran (all skipped, e.g. no usable GPU).)";

struct SelectionOptions {
  std::string filter = "*";
  std::vector<std::string> axes;
  bool controls = false;
};

void add_selection_options(CLI::App* command, SelectionOptions& options) {
  command->add_option("--filter,-f", options.filter, "ids to select: 'POS[:POS][-NEG[:NEG]]' globs")
      ->capture_default_str();
  command->add_option("--axis,-a", options.axes, "replace an axis's values: name=v1,v2 (repeatable)");
  command->add_flag("--controls", options.controls, "include known-bad controls (they are meant to fail)");
}

std::vector<Scenario> make_plan(const Registry& registry, const SelectionOptions& options) {
  Selection selection;
  selection.filter = options.filter;
  selection.include_controls = options.controls;
  for (const auto& text : options.axes) selection.overrides.push_back(parse_axis_override(text));
  return registry.plan(selection);
}

std::string quote_for_shell(const std::string& arg) {
  if (!arg.empty() && arg.find_first_of(" \t\n'\"\\$*?[]{}();&|<>`!#~") == std::string::npos) return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

int list_command(const Registry& registry, const SelectionOptions& selection, const std::string& format) {
  std::vector<Scenario> plan = make_plan(registry, selection);
  if (format == "text") {
    for (const auto& s : plan) {
      std::cout << s.id;
      if (s.family->control) std::cout << "\t(known-bad control)";
      if (!s.excluded_reason.empty()) std::cout << "\t(excluded: " << s.excluded_reason << ")";
      std::cout << "\n";
    }
    return kExitPassed;
  }
  nlohmann::ordered_json families = nlohmann::ordered_json::array();
  for (const auto& f : registry.families()) {
    if (f.control && !selection.controls) continue;
    nlohmann::ordered_json axes = nlohmann::ordered_json::array();
    for (const auto& a : f.axes)
      axes.push_back({{"name", a.name}, {"kind", a.kind == AxisKind::choice ? "choice" : "count"}, {"values", a.values}});
    families.push_back({{"name", f.name}, {"summary", f.summary}, {"control", f.control}, {"axes", axes}});
  }
  nlohmann::ordered_json scenarios = nlohmann::ordered_json::array();
  for (const auto& s : plan) {
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [axis, value] : s.params.items()) params[axis] = value;
    scenarios.push_back({{"id", s.id},
                         {"family", s.family->name},
                         {"params", params},
                         {"control", s.family->control},
                         {"excluded", s.excluded_reason}});
  }
  nlohmann::ordered_json doc = {
      {"format", "hostcb-list"}, {"format_version", 1}, {"families", families}, {"scenarios", scenarios}};
  std::cout << doc.dump(2) << "\n";
  return kExitPassed;
}

struct RunOptions {
  std::string junit_path;
  std::string json_path;
  int device = 0;
};

int run_command(const Registry& registry, const SelectionOptions& selection, const RunOptions& options,
                const std::string& command_line) {
  std::vector<Scenario> plan = make_plan(registry, selection);
  // Refuse a report path we could not write before running anything, not after.
  if (!options.junit_path.empty()) check_writable(options.junit_path, "JUnit report");
  if (!options.json_path.empty()) check_writable(options.json_path, "JSON report");

  RunReport report;
  report.started_utc = utc_now();
  report.environment = capture_environment(options.device, command_line);
  const Environment& env = report.environment;
  if (!env.devices.empty() && options.device >= static_cast<int>(env.devices.size()))
    throw UsageError(str("--device ", options.device, ": only ", env.devices.size(), " device(s) are visible"));

  ConsoleReporter console;
  auto start = std::chrono::steady_clock::now();
  Runner runner(env);
  report.results = runner.run_all(plan, [&](const Result& r, std::size_t i) { console.on_result(r, i, plan.size()); });
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (orphan_events())
    console.error(str(orphan_events(), " callback event(s) arrived while no scenario was active: a host function "
                      "outlived its scenario"));

  std::vector<std::string> written;
  int exit_code = kExitPassed;
  try {
    if (!options.junit_path.empty()) {
      write_file_atomically(options.junit_path, junit_xml(report));
      written.push_back(options.junit_path);
    }
    if (!options.json_path.empty()) {
      write_file_atomically(options.json_path, results_json(report));
      written.push_back(options.json_path);
    }
  } catch (const std::exception& e) {
    console.error(str("hostcb: ", e.what()));
    exit_code = kExitFailed;
  }
  console.summary(report, written);

  Counts counts = count_results(report.results);
  if (counts.failed || counts.error || orphan_events()) return kExitFailed;
  if (counts.passed == 0) return kExitNothingRan;
  return exit_code;
}

int overhead_command(int device, int launches, int rounds) {
  Environment env = capture_environment(device, "");
  if (!env.gpu_usable) {
    std::cout << "hostcb overhead: " << env.gpu_unusable_reason << "\n";
    return kExitNothingRan;
  }
  OverheadReport report = measure_overhead(device, launches, rounds);
  std::printf("harness overhead on %s: %d launches x %d rounds, median per launch\n", env.devices[device].name.c_str(),
              launches, rounds);
  std::printf("%-10s %14s %14s %8s\n", "mode", "bare us", "harness us", "ratio");
  for (const auto& row : report.rows)
    std::printf("%-10s %14.3f %14.3f %8.3f\n", row.mode.c_str(), row.bare_us, row.harness_us, row.ratio());
  for (const auto& problem : report.problems) std::printf("problem: %s\n", problem.c_str());
  return report.problems.empty() ? kExitPassed : kExitFailed;
}

}  // namespace

int run_cli(const Registry& registry, const std::vector<std::string>& args) {
  CLI::App app{"hostcb: regression tests for CUDA host callbacks under graph replay", "hostcb"};
  app.footer(kFooter);
  app.set_version_flag("--version", std::string(HOSTCB_VERSION) + " (" + HOSTCB_GIT_REVISION + ")");
  app.require_subcommand(1);

  SelectionOptions selection;
  std::string format = "text";
  CLI::App* list = app.add_subcommand("list", "print the scenarios a selection names, one id per line");
  add_selection_options(list, selection);
  list->add_option("--format", format, "text (ids) or json (ids, params, families and their axes)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();

  RunOptions run_options;
  CLI::App* run = app.add_subcommand("run", "run the selected scenarios and write reports");
  add_selection_options(run, selection);
  run->add_option("--junit", run_options.junit_path, "write JUnit XML here (atomically)");
  run->add_option("--json", run_options.json_path, "write versioned JSON results here (atomically)");
  run->add_option("--device,-d", run_options.device, "CUDA device ordinal")->check(CLI::NonNegativeNumber)
      ->capture_default_str();

  int launches = 20000, rounds = 9, overhead_device = 0;
  CLI::App* overhead = app.add_subcommand(
      "overhead", "measure the harness's cost per launch against a bare host function (needs a GPU)");
  overhead->add_option("--launches", launches, "launches per round")->check(CLI::Range(1, 100000000))->capture_default_str();
  overhead->add_option("--rounds", rounds, "rounds (median is reported)")->check(CLI::Range(1, 1000))->capture_default_str();
  overhead->add_option("--device,-d", overhead_device, "CUDA device ordinal")->check(CLI::NonNegativeNumber);

  std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);  // CLI11 takes them reversed, sans argv[0]
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "hostcb: " << e.what() << " (see hostcb --help)\n";
    return kExitUsage;
  }

  std::string command_line;
  for (const auto& arg : args) command_line += (command_line.empty() ? "" : " ") + quote_for_shell(arg);
  try {
    if (list->parsed()) return list_command(registry, selection, format);
    if (run->parsed()) return run_command(registry, selection, run_options, command_line);
    return overhead_command(overhead_device, launches, rounds);
  } catch (const UsageError& e) {
    std::cerr << "hostcb: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace hostcb
