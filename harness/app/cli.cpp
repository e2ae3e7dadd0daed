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
    "1 failed (or stdout could not be written), 2 usage error (nothing ran), 77 nothing ran (no usable\n"
    "GPU), 130/143 interrupted. An option is given once, unless it takes a list (--filter, --axis,\n"
    "--adapter); no value may be empty.";

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

// The options' one rule, for every subcommand alike: an option that takes a list (--filter,
// --axis, --adapter, report's files) may be repeated, any other only given once, since
// which of two values would win is a guess; and no value may be empty, since an unset
// variable ($SEED, $FILTER) must not quietly widen a run or pick a default.
bool repeatable(const CLI::Option* option) {
  return option->get_items_expected_max() > 1 || option->get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
}

// CLI11 refuses some repeats itself, in words that name no fix: check_given says it instead.
void leave_repeats_to_check_given(CLI::App* command) {
  for (CLI::Option* option : command->get_options())
    if (!repeatable(option)) option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

std::string empty_value(const std::string& name) { return name + " is given an empty value; leave it out or give it one"; }

// "--shuffle=" reaches CLI11 as no value at all (a flag's default, or a missing value), so
// it is found as written, before parsing; "" when there is none.
std::string empty_assignment(const std::vector<std::string>& args) {
  for (std::size_t i = 1; i < args.size() && args[i] != "--"; ++i)
    if (args[i].size() > 3 && args[i].rfind("--", 0) == 0 && args[i].find('=') == args[i].size() - 1)
      return empty_value(args[i].substr(0, args[i].size() - 1));
  return "";
}

// After parsing: what is given twice, and empty values given apart (--junit '').
void check_given(const CLI::App* command) {
  std::string repeats;
  for (const CLI::Option* option : command->get_options())
    if (repeatable(option) && !option->get_positional()) repeats += (repeats.empty() ? "" : ", ") + option->get_name();
  for (const CLI::Option* option : command->get_options()) {
    const std::string name = option->get_positional() ? option->get_type_name() : option->get_name();
    if (option->count() > 1 && !repeatable(option))
      throw UsageError(str(name, " is given ", option->count(), " times; give it once (", command->get_name(),
                           repeats.empty() ? " repeats no option" : " repeats only " + repeats, ")"));
    if (option->get_items_expected_max() > 0)  // it takes values, not a flag
      for (const std::string& value : option->results())
        if (value.empty()) throw UsageError(empty_value(name));
  }
}

}  // namespace

int run_cli(const CaseRegistration& register_cases, const std::vector<std::string>& args) {
  CLI::App app{"hostcb: regression tests for CUDA host callbacks under graph replay", "hostcb"};
  app.footer(kFooter);
  app.set_version_flag("--version", hostcb_version());
  app.require_subcommand(1);

  std::vector<std::unique_ptr<Command>> commands;
  for (auto make : {make_list_command, make_run_command, make_self_test_command, make_shrink_command, make_bisect_command, make_repro_command,
                    make_report_command, make_result_command, make_bench_command, make_overhead_command,
                    make_worker_command, make_check_reports_command})
    commands.push_back(make());
  std::vector<CLI::App*> parsers;
  for (auto& command : commands) parsers.push_back(command->add_to(app));
  for (CLI::App* parser : parsers) leave_repeats_to_check_given(parser);

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
  if (const std::string empty = empty_assignment(args); !empty.empty()) {
    std::cerr << "hostcb: " << printable(empty) << "\n";
    return kExitUsage;
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
  const CLI::App* chosen_parser = nullptr;
  for (std::size_t i = 0; i < parsers.size(); ++i)
    if (parsers[i]->parsed()) chosen = commands[i].get(), chosen_parser = parsers[i];
  if (!chosen) return kExitUsage;  // require_subcommand(1) makes this unreachable
  try {
    check_given(chosen_parser);
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
