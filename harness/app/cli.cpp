#include "app/cli.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

#include "app/command.hpp"
#include "app/options.hpp"
#include "model/suggest.hpp"
#include "cuda/adapter_loader.hpp"
#include "exec/interrupt.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

constexpr const char* kFooter =
    "Run 'hostcb SUBCOMMAND --help' for its options and exit codes. Exit codes in short: 0 passed,\n"
    "1 failed, 2 usage error (nothing ran), 77 nothing ran (no usable GPU), 130/143 interrupted.";

std::vector<std::string> names_of(const std::vector<CLI::App*>& commands) {
  std::vector<std::string> names;
  for (const auto* c : commands)
    if (!c->get_group().empty()) names.push_back(c->get_name());
  return names;
}

// Words for the options of `command`, as written: "--filter", "-f".
std::vector<std::string> option_words(const CLI::App* command) {
  std::vector<std::string> words;
  for (const CLI::Option* option : command->get_options()) {
    for (const auto& name : option->get_lnames()) words.push_back("--" + name);
    for (const auto& name : option->get_snames()) words.push_back("-" + name);
  }
  return words;
}

// One line for arguments CLI11 did not expect, with a suggestion for a mistyped option.
std::string unexpected(const CLI::App& app, const std::vector<std::string>& extras) {
  const CLI::App* command = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
  const std::string& first = extras.front();
  std::string where = command == &app ? "" : " for " + command->get_name();
  if (first.rfind("-", 0) == 0) {
    std::string word = first.substr(0, first.find('='));
    std::string hint = closest_match(word, option_words(command));
    return "unknown option '" + first + "'" + where + (hint.empty() ? "" : "; did you mean '" + hint + "'?");
  }
  std::string text = "unexpected argument";
  text += extras.size() > 1 ? "s" : "";
  for (const auto& e : extras) text += " '" + e + "'";
  return text + where;
}

// What hostcb echoes of the command line, made one visible line: control characters (an
// escape sequence in a filter, a newline in an axis) as \xNN, so a message cannot rewrite
// the terminal or forge a line of its own.
std::string printable(const std::string& text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

}  // namespace

int run_cli(const CaseRegistration& register_cases, const std::vector<std::string>& args) {
  CLI::App app{"hostcb: regression tests for CUDA host callbacks under graph replay", "hostcb"};
  app.footer(kFooter);
  app.set_version_flag("--version", std::string(HOSTCB_VERSION) + " (" + git_revision() + ")");
  app.require_subcommand(1);

  std::vector<std::unique_ptr<Command>> commands;
  for (auto make : {make_list_command, make_run_command, make_self_test_command, make_shrink_command, make_report_command,
                    make_result_command, make_bench_command, make_overhead_command, make_worker_command})
    commands.push_back(make());
  std::vector<CLI::App*> parsers;
  for (auto& command : commands) parsers.push_back(command->add_to(app));

  if (args.size() > 1 && args[1].rfind("-", 0) != 0) {  // a subcommand, or a typo of one
    bool known = false;
    for (const auto* p : parsers) known = known || p->get_name() == args[1];
    if (!known) {
      std::string hint = closest_match(args[1], names_of(parsers));
      std::cerr << "hostcb: unknown subcommand '" << printable(args[1]) << "'"
                << (hint.empty() ? "" : "; did you mean '" + hint + "'?") << " (see hostcb --help)\n";
      return kExitUsage;
    }
  }
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError&) {
    std::vector<std::string> extras = app.remaining();
    for (const auto* p : parsers)
      if (p->parsed()) extras = p->remaining();
    std::cerr << "hostcb: " << printable(unexpected(app, extras.empty() ? app.remaining() : extras)) << " (see hostcb --help)\n";
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    std::cerr << "hostcb: " << printable(e.what()) << " (see hostcb --help)\n";
    return kExitUsage;
  }

  Command* chosen = nullptr;
  for (std::size_t i = 0; i < parsers.size(); ++i)
    if (parsers[i]->parsed()) chosen = commands[i].get();
  if (!chosen) return kExitUsage;  // require_subcommand(1) makes this unreachable
  try {
    struct Teardown {
      ~Teardown() { teardown_adapters(); }
    } teardown;  // also for the adapters loaded before one was refused
    for (const auto& spec : chosen->adapters())
      load_adapter(spec, chosen->adapter_check(), {kWorkerStartupSeconds, interrupt_fd()});
    Registry registry;
    register_cases(registry);
    return chosen->run(registry, shell_quoted(args));
  } catch (const UsageError& e) {
    std::cerr << "hostcb: " << printable(e.what()) << "\n";
    return kExitUsage;
  } catch (const Interrupted& e) {
    std::cerr << "hostcb: " << e.what() << "\n";
    return exit_code_for_signal(interrupt_signal());
  }
}

}  // namespace hostcb
