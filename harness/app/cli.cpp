#include "app/cli.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <optional>

#include "callback/active_scenario.hpp"
#include "cuda/adapter_loader.hpp"
#include "reports/atomic_file.hpp"
#include "app/bench.hpp"
#include "app/bench_writer.hpp"
#include "reports/console_reporter.hpp"
#include "cuda/environment_capture.hpp"
#include "model/errors.hpp"
#include "reports/json_writer.hpp"
#include "reports/junit_writer.hpp"
#include "reports/matrix_writer.hpp"
#include "app/overhead.hpp"
#include "exec/supervisor.hpp"
#include "app/expectations.hpp"
#include "exec/interrupt.hpp"
#include "runner/runner.hpp"
#include "app/selftest.hpp"
#include "runner/worker.hpp"

namespace hostcb {

namespace {

constexpr const char* kFooter = R"(Filters (gtest style): --filter 'POS[:POS...][-NEG[:NEG...]]' selects scenario ids
matching any POS glob and no NEG glob ('*' any run, '?' one character). Example:
  hostcb run --filter 'replay/*:stream_callback/*-*replays=100*'
Axis overrides replace an axis's values wherever it exists: --axis replays=1,7
Isolation (--isolate): worker (default) runs scenarios in a worker process that is replaced when it
crashes or hangs; scenario gives each scenario a fresh process; none runs in-process (for a debugger).
Exit codes: 0 passed, 1 failed or error, 2 usage error, 77 nothing ran (all skipped, e.g. no usable GPU),
130/143 interrupted by SIGINT/SIGTERM (reports are still written, unrun scenarios skipped).)";

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

// "needs runtime 12.4+, driver for CUDA 12.4+, 2 devices"; empty when nothing beyond a GPU.
std::string describe_requirements(const Requirements& needs) {
  std::vector<std::string> parts;
  if (needs.min_runtime) parts.push_back("runtime " + cuda_version_string(needs.min_runtime) + "+");
  if (needs.min_driver) parts.push_back("driver for CUDA " + cuda_version_string(needs.min_driver) + "+");
  if (needs.min_devices > 1) parts.push_back(str(needs.min_devices, " devices"));
  if (parts.empty()) return "";
  std::string text = "needs ";
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : "") + parts[i];
  return text;
}

int list_command(const Registry& registry, const SelectionOptions& selection, const std::string& format) {
  std::vector<Scenario> plan = make_plan(registry, selection);
  if (format == "text") {
    for (const auto& s : plan) {
      std::cout << s.id;
      if (s.control) std::cout << "\t(known-bad control: must end " << s.control->describe() << ")";
      if (!s.excluded_reason.empty())
        std::cout << "\t(excluded: " << s.excluded_reason << ")";
      else if (std::string needs = describe_requirements(s.requirements); !needs.empty())
        std::cout << "\t(" << needs << ")";
      std::cout << "\n";
    }
    return kExitPassed;
  }
  nlohmann::ordered_json families = nlohmann::ordered_json::array();
  for (const auto& f : registry.families()) {
    nlohmann::ordered_json axes = nlohmann::ordered_json::array();
    for (const auto& a : f.axes)
      axes.push_back({{"name", a.name}, {"kind", a.kind == AxisKind::choice ? "choice" : "count"}, {"values", a.values}});
    families.push_back({{"name", f.name},
                        {"summary", f.summary},
                        {"fresh_process", f.fresh_process},
                        {"axes", axes}});
  }
  nlohmann::ordered_json scenarios = nlohmann::ordered_json::array();
  for (const auto& s : plan) {
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [axis, value] : s.params.items()) params[axis] = value;
    scenarios.push_back({{"id", s.id},
                         {"family", s.family->name},
                         {"params", params},
                         {"control", s.control ? nlohmann::ordered_json(s.control->describe()) : nullptr},
                         {"excluded", s.excluded_reason},
                         {"min_runtime", s.requirements.min_runtime},
                         {"min_driver", s.requirements.min_driver},
                         {"min_devices", s.requirements.min_devices},
                         {"timeout_s", s.timeout_s}});
  }
  nlohmann::ordered_json doc = {
      {"format", "hostcb-list"}, {"format_version", 1}, {"families", families}, {"scenarios", scenarios}};
  std::cout << doc.dump(2) << "\n";
  return kExitPassed;
}

struct RunOptions {
  std::string junit_path;
  std::string json_path;
  std::string device = "0";  // an ordinal, or "all"
  std::string isolation = "worker";
  double timeout_s = 120;
  std::vector<std::string> adapters;  // --adapter PATH[@OPTIONS]
  std::string expectations_path;      // --expectations FILE
};

ExecutionOptions execution_options(const RunOptions& options) {
  ExecutionOptions execution;
  execution.isolation = parse_isolation(options.isolation);
  execution.timeout_s = options.timeout_s;
  execution.worker_command = {"/proc/self/exe", "worker"};
  for (const auto& spec : options.adapters) {  // workers load the same layers
    execution.worker_command.push_back("--adapter");
    execution.worker_command.push_back(spec);
  }
  return execution;
}

// The devices `--device` names: one ordinal, or every visible one for "all" (device 0
// when none is visible, so that every scenario is skipped with the reason).
std::vector<int> devices_for(const std::string& spec, const Environment& env) {
  if (spec != "all") return {std::stoi(spec)};
  std::vector<int> all;
  for (const auto& d : env.devices) all.push_back(d.ordinal);
  if (all.empty()) all.push_back(0);
  return all;
}

int first_device(const std::string& spec) { return spec == "all" ? 0 : std::stoi(spec); }

// Captures the environment, refusing a device ordinal past the visible ones.
Environment environment_for(int device, const std::string& command_line) {
  Environment env = capture_environment(device, command_line);
  env.adapters = loaded_adapters();
  if (!env.devices.empty() && device >= static_cast<int>(env.devices.size()))
    throw UsageError(str("--device ", device, ": only ", env.devices.size(), " device(s) are visible"));
  return env;
}

int interrupted_exit_code() { return 128 + interrupt_signal(); }

int run_command(const Registry& registry, const SelectionOptions& selection, const RunOptions& options,
                const std::string& command_line) {
  std::vector<Scenario> plan = make_plan(registry, selection);
  ExecutionOptions execution = execution_options(options);
  // A bad expectations file or report path stops the run before anything runs.
  std::optional<Expectations> expectations;
  if (!options.expectations_path.empty()) expectations = load_expectations(options.expectations_path);
  if (!options.junit_path.empty()) check_writable(options.junit_path, "JUnit report");
  if (!options.json_path.empty()) check_writable(options.json_path, "JSON report");

  RunReport report;
  report.started_utc = utc_now();
  report.environment = environment_for(first_device(options.device), command_line);
  const std::vector<int> devices = devices_for(options.device, report.environment);
  const bool several = options.device == "all";
  if (several) report.environment.selected_device = kAllDevices;
  install_interrupt_handlers();
  ConsoleReporter console;
  auto start = std::chrono::steady_clock::now();
  const std::size_t total = plan.size() * devices.size();
  for (std::size_t d = 0; d < devices.size(); ++d) {
    Environment on_device = report.environment;
    on_device.selected_device = execution.device = devices[d];
    Runner in_process(on_device);
    execution.run_in_process = [&](const Scenario& s) { return in_process.run(s); };
    const std::size_t offset = d * plan.size();
    std::vector<Result> results = execute_plan(plan, on_device, execution, [&](const Result& r, std::size_t i) {
      console.on_result(r, offset + i, total);
    });
    for (auto& r : results) {
      if (several) r.device = devices[d];
      report.results.push_back(std::move(r));
    }
  }
  if (expectations) apply_expectations(report.results, *expectations, report.environment);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (orphan_events()) console.error(describe_orphan_events());

  std::vector<std::string> written;
  bool reports_ok = true;
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
    reports_ok = false;
  }
  console.summary(report, written);

  if (interrupt_signal()) return interrupted_exit_code();
  Counts counts = count_results(report.results);
  if (counts.any_bad() || orphan_events() || !reports_ok) return kExitFailed;
  if (counts.passed == 0) return kExitNothingRan;
  return kExitPassed;
}

int self_test_command(const Registry& registry, RunOptions options, const std::string& command_line) {
  Selection selection;
  selection.only_controls = true;
  std::vector<Scenario> plan = registry.plan(selection);
  if (options.isolation == "none") throw UsageError("self-test needs worker isolation: controls crash and hang");
  ExecutionOptions execution = execution_options(options);
  Environment env = environment_for(first_device(options.device), command_line);
  execution.device = env.selected_device;
  Runner in_process(env);
  execution.run_in_process = [&](const Scenario& s) { return in_process.run(s); };
  install_interrupt_handlers();
  std::size_t done = 0;
  std::vector<Result> results = execute_plan(plan, env, execution, [&](const Result&, std::size_t) {
    if (++done % 10 == 0 || done == plan.size()) std::cerr << "self-test: " << done << "/" << plan.size() << "\n";
  });
  std::vector<ControlOutcome> outcomes = judge_controls(plan, results);
  std::cout << controls_table(outcomes);
  if (interrupt_signal()) return interrupted_exit_code();
  std::size_t caught = 0, skipped = 0;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    caught += outcomes[i].caught;
    skipped += results[i].status == Status::skipped;
  }
  if (skipped == outcomes.size()) {
    std::cout << "self-test: nothing ran: " << results.front().reason << "\n";
    return kExitNothingRan;
  }
  std::cout << "self-test: " << caught << " of " << outcomes.size() << " known-bad controls caught\n";
  return caught == outcomes.size() ? kExitPassed : kExitFailed;
}

struct ReportOptions {
  std::vector<std::string> results;  // hostcb run --json files
  std::string previous, markdown_path, html_path, json_path;
};

// Merges many runs into the driver matrix (reports/matrix.hpp); with no output named,
// prints the Markdown.
int report_command(const ReportOptions& options) {
  for (const auto& [path, what] : {std::pair{options.markdown_path, "Markdown report"},
                                   {options.html_path, "HTML report"}, {options.json_path, "matrix JSON"}})
    if (!path.empty()) check_writable(path, what);
  MatrixReport report;
  report.generated_utc = utc_now();
  for (const auto& path : options.results) add_results_file(report.matrix, path);
  if (!options.previous.empty()) {
    report.has_previous = true;
    report.previous_source = options.previous;
    report.changes = changes_since(load_matrix_json(options.previous), report.matrix);
  }
  if (!options.markdown_path.empty()) write_file_atomically(options.markdown_path, matrix_markdown(report));
  if (!options.html_path.empty()) write_file_atomically(options.html_path, matrix_html(report));
  if (!options.json_path.empty()) write_file_atomically(options.json_path, matrix_json(report.matrix));
  if (options.markdown_path.empty() && options.html_path.empty() && options.json_path.empty())
    std::cout << matrix_markdown(report);
  std::cerr << "hostcb report: " << report.matrix.scenarios.size() << " scenarios, " << report.matrix.columns.size()
            << " environments, " << report.matrix.differing().size() << " differing across them";
  if (report.has_previous) std::cerr << ", " << report.changes.size() << " changed since the previous matrix";
  std::cerr << "\n";
  return kExitPassed;
}

struct BenchCliOptions {
  BenchOptions bench;
  std::string json_path, html_path;
  bool enforce_bar = false;
};

int bench_command(const BenchCliOptions& options, const std::string& command_line) {
  if (!options.json_path.empty()) check_writable(options.json_path, "bench JSON");
  if (!options.html_path.empty()) check_writable(options.html_path, "bench HTML");
  Environment env = environment_for(options.bench.device, command_line);
  if (!env.gpu_usable) {
    std::cout << "hostcb bench: " << env.gpu_unusable_reason << "\n";
    return kExitNothingRan;
  }
  BenchReport report = run_bench(options.bench, env);
  std::cout << bench_table(report);
  if (!options.json_path.empty()) write_file_atomically(options.json_path, bench_json(report));
  if (!options.html_path.empty()) write_file_atomically(options.html_path, bench_html(report));
  if (!report.problems.empty()) return kExitFailed;
  return options.enforce_bar && !bench_meets_bar(report) ? kExitFailed : kExitPassed;
}

int overhead_command(int device, int launches, int rounds) {
  Environment env = environment_for(device, "");
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

int run_cli(const CaseRegistration& register_cases, const std::vector<std::string>& args) {
  CLI::App app{"hostcb: regression tests for CUDA host callbacks under graph replay", "hostcb"};
  app.footer(kFooter);
  app.set_version_flag("--version", std::string(HOSTCB_VERSION) + " (" + git_revision() + ")");
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
  run->add_option("--expectations", run_options.expectations_path,
                  "known behaviour (JSON with comments): listed failures become xfail, listed ones that pass xpass");
  run->add_option("--device,-d", run_options.device,
                   "CUDA device ordinal, or 'all': the whole selection on every visible device in turn")
      ->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            if (value == "all" || (!value.empty() && value.size() < 6 &&
                                   value.find_first_not_of("0123456789") == std::string::npos))
              return "";
            return "'" + value + "' is neither a device ordinal (0, 1, ...) nor 'all'";
          },
          "ORDINAL|all"))
      ->capture_default_str();
  auto add_adapter_option = [&](CLI::App* command) {
    command->add_option("--adapter", run_options.adapters,
                        "load a forwarding layer (adapter ABI, hostcb/adapter.h): PATH[@OPTIONS] (repeatable)");
  };
  add_adapter_option(list);
  add_adapter_option(run);
  auto add_execution_options = [&](CLI::App* command) {
    command->add_option("--isolate", run_options.isolation, "none, worker or scenario (see below)")
        ->check(CLI::IsMember({"none", "worker", "scenario"}))
        ->capture_default_str();
    command->add_option("--timeout", run_options.timeout_s,
                        "seconds a scenario may take, unless its family sets its own")
        ->check(CLI::Range(0.1, 86400.0))
        ->capture_default_str();
  };
  add_execution_options(run);

  CLI::App* self_test = app.add_subcommand(
      "self-test", "run every known-bad control; succeed only if each is caught as it must be (needs a GPU)");
  add_execution_options(self_test);
  self_test->add_option("--device,-d", run_options.device, "CUDA device ordinal")->check(CLI::NonNegativeNumber);
  add_adapter_option(self_test);

  int worker_device = 0, events_fd = -1, progress_fd = -1;
  CLI::App* worker = app.add_subcommand("worker", "internal: run scenario ids from stdin for a supervisor");
  worker->group("");  // hidden from --help
  worker->add_option("--device", worker_device)->required();
  worker->add_option("--events-fd", events_fd)->required();
  worker->add_option("--progress-fd", progress_fd)->required();
  add_adapter_option(worker);

  int launches = 20000, rounds = 9, overhead_device = 0;
  CLI::App* overhead = app.add_subcommand(
      "overhead", "measure the harness's cost per launch against a bare host function (needs a GPU)");
  overhead->add_option("--launches", launches, "launches per round")->check(CLI::Range(1, 100000000))->capture_default_str();
  overhead->add_option("--rounds", rounds, "rounds (median is reported)")->check(CLI::Range(1, 1000))->capture_default_str();
  overhead->add_option("--device,-d", overhead_device, "CUDA device ordinal")->check(CLI::NonNegativeNumber);

  BenchCliOptions bench_options;
  ReportOptions report_options;
  CLI::App* report = app.add_subcommand(
      "report", "merge run --json files from many drivers, runtimes and GPUs into one matrix (Markdown, HTML, JSON)");
  report->add_option("results", report_options.results, "hostcb run --json files")->required()->check(CLI::ExistingFile);
  report->add_option("--previous", report_options.previous,
                     "the previous night's matrix JSON (report --json): list what changed since")
      ->check(CLI::ExistingFile);
  report->add_option("--markdown", report_options.markdown_path, "write the Markdown matrix here");
  report->add_option("--html", report_options.html_path, "write a self-contained HTML page here");
  report->add_option("--json", report_options.json_path, "write the matrix as JSON here (tomorrow's --previous)");

  CLI::App* bench = app.add_subcommand(
      "bench", "measure what host callbacks cost on each path, beside a raw baseline (needs a GPU)");
  bench->add_option("--launches", bench_options.bench.launches, "launches per path and arm")
      ->check(CLI::Range(10, 10000000))
      ->capture_default_str();
  bench->add_option("--warmup", bench_options.bench.warmup, "warm-up launches per arm")
      ->check(CLI::Range(2, 1000000))
      ->capture_default_str();
  bench->add_flag("--quick", bench_options.bench.quick, "short scaling series (a smoke run)");
  bench->add_option("--json", bench_options.json_path, "write versioned JSON here");
  bench->add_option("--html", bench_options.html_path, "write a self-contained HTML page with SVG plots here");
  bench->add_flag("--enforce-bar", bench_options.enforce_bar,
                  "exit 1 when a direct-layer path's p50 is over 1.05x its raw baseline");
  bench->add_option("--device,-d", bench_options.bench.device, "CUDA device ordinal")->check(CLI::NonNegativeNumber);
  add_adapter_option(bench);

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
    for (const auto& spec : run_options.adapters) load_adapter(spec);
    Registry registry;
    register_cases(registry);
    struct Teardown {
      ~Teardown() { teardown_adapters(); }
    } teardown;
    if (list->parsed()) return list_command(registry, selection, format);
    if (run->parsed()) return run_command(registry, selection, run_options, command_line);
    if (self_test->parsed()) return self_test_command(registry, run_options, command_line);
    if (worker->parsed()) return worker_main(registry, worker_device, events_fd, progress_fd);
    if (bench->parsed()) return bench_command(bench_options, command_line);
    if (report->parsed()) return report_command(report_options);
    return overhead_command(overhead_device, launches, rounds);
  } catch (const UsageError& e) {
    std::cerr << "hostcb: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace hostcb
