// A subcommand: declares its options on the parser, then runs once parsed. cli.cpp only
// dispatches; each subcommand lives in its own file (app/*_command.cpp).
#pragma once
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "cuda/adapter_loader.hpp"
#include "model/registry.hpp"

namespace hostcb {

class Command {
 public:
  virtual ~Command() = default;
  // Adds the subcommand and its options to `app`; returns it.
  virtual CLI::App* add_to(CLI::App& app) = 0;
  // The layers to load (--adapter) before the registry is made.
  virtual std::vector<std::string> adapters() const { return {}; }
  // How to check them: in a child first, unless a supervisor has already (the worker).
  virtual AdapterCheck adapter_check() const { return AdapterCheck::in_child_first; }
  // `registry` holds every family; `command_line` is the whole command, shell-quoted.
  virtual int run(const Registry& registry, const std::string& command_line) = 0;
};

std::unique_ptr<Command> make_list_command();
std::unique_ptr<Command> make_run_command();
std::unique_ptr<Command> make_self_test_command();
std::unique_ptr<Command> make_shrink_command();
std::unique_ptr<Command> make_bisect_command();
std::unique_ptr<Command> make_repro_command();
std::unique_ptr<Command> make_report_command();
std::unique_ptr<Command> make_result_command();
std::unique_ptr<Command> make_bench_command();
std::unique_ptr<Command> make_overhead_command();
std::unique_ptr<Command> make_worker_command();
std::unique_ptr<Command> make_check_reports_command();

}  // namespace hostcb
