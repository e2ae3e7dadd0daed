// hostcb shrink ID: a failing fuzz scenario cut down to a smallest program that still
// fails the same way. Every candidate is an ordinary fuzz id (its `cut` axis says what
// was cut), run in a worker like any scenario, so a crash is a result like any other;
// candidates made from the same cuts run side by side (-j).
#include <cctype>
#include <iostream>
#include <optional>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/options.hpp"
#include "app/run_session.hpp"
#include "cases/fuzz/generator.hpp"
#include "cases/fuzz/shrink.hpp"
#include "exec/interrupt.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

// How a result failed, with its numbers blotted out: a candidate fails "the same way" when
// its status and this line agree ("failed: [count]", "error: the worker killed by signal
// SIGSEGV (#) at launch # of #").
std::string failure_signature(const Result& r) {
  std::string text = !r.reason.empty() ? r.reason : r.failures.empty() ? "" : r.failures.front().message;
  text = text.substr(0, text.find_first_of(";\n"));
  if (!text.empty() && text[0] == '[') text = text.substr(0, text.find(']') + 1);  // the invariant's tag
  std::string blotted;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      blotted += c;
    else if (blotted.empty() || blotted.back() != '#')
      blotted += '#';
  return std::string(status_name(r.status)) + ": " + blotted;
}

std::string with_cut(const Scenario& s, const std::string& cut) {
  return scenario_id(s.family->name, s.family->axes, s.params.with("cut", cut));
}

class ShrinkCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* shrink = app.add_subcommand("shrink", "cut a failing fuzz scenario down to a smallest failing program");
    shrink->add_option("id", id_, "the failing fuzz scenario's id")->required()->type_name("ID");
    add_execution_options(shrink, execution_);
    add_device_option(shrink, device_, false);
    add_adapter_option(shrink, adapters_);
    shrink->footer(
        "Runs the id, then candidates with fewer operations, nodes and launches (each an ordinary id,\n"
        "fuzz/.../cut=WORD), keeping a cut when the candidate fails the same way: the same status and\n"
        "the same first failure with its numbers left out. Prints the smallest program as steps and its id.\n"
        "Exit codes: 0 shrunk (or the id passes: nothing to shrink, said so), 2 usage error, 77 no usable GPU,\n"
        "130/143 interrupted.");
    return shrink;
  }
  std::vector<std::string> adapters() const override { return adapters_; }

  int run(const Registry& registry, const std::string& command_line) override {
    const Scenario original = registry.resolve(id_);
    if (original.family->name != "fuzz") throw UsageError("shrink takes a fuzz scenario's id; '" + id_ + "' is not one");
    RunSession session({device_, execution_, adapters_, command_line, "shrink needs worker isolation: candidates crash"});
    Reporter silent;  // the candidates' results are judged here, not reported
    int runs = 0;
    auto run_ids = [&](const std::vector<std::string>& ids) {  // side by side, in the session's workers
      std::vector<Scenario> scenarios;
      for (const auto& id : ids) scenarios.push_back(registry.resolve(id));
      runs += static_cast<int>(ids.size());
      return session.run(scenarios, 1, silent).report.results;
    };
    const Result first = run_ids({id_}).front();
    if (first.status == Status::skipped) {
      std::cout << "exit " << kExitNothingRan << ": nothing ran: " << first.reason << "\n";
      return kExitNothingRan;
    }
    if (!is_bad(first.status)) {
      std::cout << id_ << " passes: nothing to shrink\nexit 0\n";
      return kExitPassed;
    }
    const std::string signature = failure_signature(first);
    std::cerr << "shrink: the failure is " << signature << "\n";
    const fuzz::Program program = fuzz::generate(static_cast<std::uint64_t>(original.params.get_count("seed")),
                                                 static_cast<int>(original.params.get_count("size")),
                                                 fuzz::parse_op_set(original.params.get("ops")));
    // Candidates made from the same cuts run side by side, a window of -j at a time; the
    // first of them (in order) that fails the same way wins, as one at a time.
    auto first_failing = [&](const std::vector<fuzz::Cuts>& candidates) -> std::optional<std::size_t> {
      if (interrupt_signal()) return std::nullopt;
      std::vector<std::string> ids;
      for (const auto& c : candidates) ids.push_back(with_cut(original, fuzz::cuts_word(c)));
      const int before = runs;
      const std::vector<Result> results = run_ids(ids);
      std::optional<std::size_t> found;
      for (std::size_t k = 0; k < results.size(); ++k) {
        const bool same = is_bad(results[k].status) && failure_signature(results[k]) == signature;
        std::cerr << "shrink: run " << before + static_cast<int>(k) + 1 << ", "
                  << fuzz::apply_cuts(program, candidates[k]).ops.size() << " operations: "
                  << (same ? "fails the same way" : "does not") << "\n";
        if (same && !found) found = k;
      }
      return found;
    };
    const fuzz::Cuts cuts =
        fuzz::shrink(program, fuzz::parse_cuts(original.params.get("cut")), session.workers(), first_failing);
    if (int signal = interrupt_signal()) return exit_code_for_signal(signal);
    const std::string smallest = with_cut(original, fuzz::cuts_word(cuts));
    std::cout << "shrunk in " << runs << " runs to " << fuzz::apply_cuts(program, cuts).ops.size() << " operations ("
              << signature << "):\n"
              << fuzz::to_text(fuzz::apply_cuts(program, cuts)) << "rerun: hostcb run --controls --filter '" << smallest
              << "'\nexit 0\n";
    return kExitPassed;
  }

 private:
  std::string id_;
  ExecutionCliOptions execution_;
  std::string device_ = "0";
  std::vector<std::string> adapters_;
};

}  // namespace

std::unique_ptr<Command> make_shrink_command() { return std::make_unique<ShrinkCommand>(); }

}  // namespace hostcb
