// hostcb list: the scenarios a selection names (ids, or JSON), or the families.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/expectations.hpp"
#include "app/options.hpp"
#include "cuda/adapter_loader.hpp"
#include "cuda/environment_capture.hpp"
#include "exec/supervisor.hpp"
#include "model/errors.hpp"

namespace hostcb {

namespace {

constexpr const char* kRunsAloneNote = "runs alone: a fresh process with nothing beside it, whatever -j says";

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

nlohmann::ordered_json axes_json(const Family& f) {
  nlohmann::ordered_json axes = nlohmann::ordered_json::array();
  for (const auto& a : f.axes)
    axes.push_back({{"name", a.name}, {"kind", a.kind == AxisKind::choice ? "choice" : a.kind == AxisKind::count ? "count" : "word"}, {"values", a.values}});
  return axes;
}

class ListCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* list = app.add_subcommand("list", "print the scenarios a selection names, one id per line");
    add_selection_options(list, selection_);
    list->add_option("--format", format_, "text (ids) or json (ids, params, families and their axes)")
        ->type_name("FORMAT")
        ->check(CLI::IsMember({"text", "json"}).description(""))
        ->capture_default_str();
    list->add_flag("--families", families_, "list the families instead: name, scenarios, axes, summary");
    add_adapter_option(list, adapters_);
    expectations_option_ =
        list->add_option("--expectations", expectations_name_,
                         "preview an expectations file: the scenarios each entry marks, and which entries apply with "
                         "the loaded layers' versions and this machine's driver and runtime ('shipped': the known "
                         "layer bugs shipped with hostcb)")
            ->type_name("FILE");
    list->footer(std::string(kFilterHelp) +
                 "\nThe ids go to stdout, one per line; the total goes to stderr, and with --expectations one line\n"
                 "per entry after it (applies to N of these scenarios, or why it applies to none).\n"
                 "Exit codes: 0 listed, 1 stdout could not be written (list | head), 2 usage error, 130/143 interrupted.");
    return list;
  }
  std::vector<std::string> adapters() const override { return adapters_; }

  int run(const Registry& registry, const std::string&) override {
    std::vector<Scenario> plan = make_plan(registry, selection_);
    Marks marks = mark(registry, plan);
    if (marks.expectations && families_) throw UsageError("--families lists no scenarios: give --expectations without it");
    if (format_ == "json") {
      print_json(registry, plan, marks);
    } else if (families_) {
      print_families(registry, plan);
    } else {
      std::size_t controls = 0, excluded = 0;
      for (const auto& s : plan) {
        std::cout << s.id;
        controls += s.control.has_value();
        excluded += !s.excluded_reason.empty();
        if (s.control) std::cout << "\t(known-bad control: must end " << s.control->describe() << ")";
        if (!s.excluded_reason.empty())
          std::cout << "\t(excluded: " << s.excluded_reason << ")";
        else if (std::string needs = describe_requirements(s.requirements); !needs.empty())
          std::cout << "\t(" << needs << ")";
        if (s.excluded_reason.empty() && runs_alone(s)) std::cout << "\t(" << kRunsAloneNote << ")";
        if (const Expectation* e = marks.by_scenario[&s - plan.data()]; e && s.excluded_reason.empty())
          std::cout << "\t(expected to end " << expected_results(*e) << ": " << marks.expectations->path << ":" << e->line << ")";
        std::cout << "\n";
      }
      std::cout.flush();
      std::cerr << plan.size() << " scenarios (" << excluded << " excluded, " << controls << " known-bad controls)\n";
      print_entries(marks);
    }
    return kExitPassed;
  }

 private:
  // What an expectations file makes of the listed scenarios: the entry that marks each (the
  // first that applies, as in a run), and for each entry how many it marks, or why it
  // applies to none. An excluded scenario never runs, so no entry applies to it in a run:
  // it is not counted, nor marked in the text, only in JSON (beside its "excluded").
  struct Marks {
    std::optional<Expectations> expectations;
    Environment env;
    std::vector<const Expectation*> by_scenario;
    std::vector<std::size_t> count;  // per entry
    std::vector<std::string> why_not;  // per entry: "" when it applies here
  };

  Marks mark(const Registry& registry, const std::vector<Scenario>& plan) const {
    Marks marks;
    marks.by_scenario.assign(plan.size(), nullptr);
    if (!expectations_option_->count()) return marks;
    std::vector<std::string> warnings;
    marks.expectations = load_checked_expectations(expectations_path(expectations_name_), registry, selection_.axes, warnings);
    for (const auto& warning : warnings) std::cerr << warning << "\n";
    marks.env = capture_versions();
    marks.env.adapters = loaded_adapters();
    for (const auto& warning : driver_version_warnings(*marks.expectations, marks.env)) std::cerr << warning << "\n";
    const Expectations& ex = *marks.expectations;
    marks.count.assign(ex.entries.size(), 0);
    for (const auto& e : ex.entries) {
      std::string why;
      marks.why_not.push_back(entry_applies(e, marks.env, &why) ? "" : why);
    }
    for (std::size_t i = 0; i < plan.size(); ++i)
      if (const Expectation* e = find_expectation(ex, plan[i].id, plan[i].params, marks.env)) {
        marks.by_scenario[i] = e;
        if (plan[i].excluded_reason.empty()) ++marks.count[e - ex.entries.data()];
      }
    return marks;
  }

  static std::string expected_results(const Expectation& e) {
    std::string text;
    for (Status s : e.expect) text += (text.empty() ? "" : " or ") + std::string(status_name(s));
    return text;
  }

  // One line per entry, after the total, then how many apply.
  static void print_entries(const Marks& marks) {
    if (!marks.expectations) return;
    const Expectations& ex = *marks.expectations;
    std::size_t applying = 0, marked = 0;
    for (std::size_t i = 0; i < ex.entries.size(); ++i) {
      const Expectation& e = ex.entries[i];
      std::cerr << ex.path << ":" << e.line << ": ";
      if (marks.why_not[i].empty()) {
        ++applying;
        marked += marks.count[i];
        std::cerr << "applies to " << marks.count[i] << " of these scenarios";
      } else {
        std::cerr << "applies to none: " << marks.why_not[i];
      }
      std::cerr << " (" << e.ids() << ")\n";
    }
    std::string layers;
    for (const auto& adapter : marks.env.adapters)
      for (const auto& [package, version] : adapter.versions) layers += (layers.empty() ? "" : ", ") + package + " " + version;
    std::cerr << applying << " of " << ex.entries.size() << " entries apply (layers: " << (layers.empty() ? "none loaded" : layers)
              << "; driver " << (marks.env.driver.empty() ? "unknown" : marks.env.driver) << ", runtime "
              << cuda_version_string(marks.env.runtime_version) << "); they mark " << marked << " of these scenarios\n";
  }

  void print_families(const Registry& registry, const std::vector<Scenario>& plan) const {
    std::size_t total = 0;
    for (const auto& f : registry.families()) {
      std::size_t n = 0;
      for (const auto& s : plan) n += s.family == &f;
      if (!n) continue;
      total += n;
      std::string axes;
      for (const auto& a : f.axes) axes += (axes.empty() ? "" : " ") + a.name;
      std::cout << f.name << "\t" << n << " scenarios\taxes: " << axes << "\t" << f.summary << "\n";
    }
    std::cout.flush();
    std::cerr << total << " scenarios in the families listed\n";
  }

  // One document, written a scenario at a time: a million scenarios as one JSON tree took
  // 3.6 GB.
  static void print_json(const Registry& registry, const std::vector<Scenario>& plan, const Marks& marks) {
    nlohmann::ordered_json families = nlohmann::ordered_json::array();
    for (const auto& f : registry.families())
      families.push_back({{"name", f.name}, {"summary", f.summary}, {"fresh_process", f.fresh_process}, {"axes", axes_json(f)}});
    // The adapters loaded, by the forward-axis name each took: what a tool needs to pick a
    // layer's scenarios from the listing (the pytest plugin does).
    nlohmann::ordered_json adapters = nlohmann::ordered_json::array();
    for (const auto& a : loaded_adapters()) adapters.push_back({{"name", a.name}, {"path", a.path}, {"describe", a.describe}});
    nlohmann::ordered_json head = {{"format", "hostcb-list"}, {"format_version", 1}, {"adapters", adapters},
                                   {"families", families}};
    if (marks.expectations) head["expectations"] = expectations_json(marks);
    head["scenarios"] = nullptr;
    std::string text = head.dump(2);
    std::cout << text.substr(0, text.rfind("null")) << "[";
    const char* separator = "\n";
    for (const auto& s : plan) {
      nlohmann::ordered_json params = nlohmann::ordered_json::object();
      for (const auto& [axis, value] : s.params.items()) params[axis] = value;
      nlohmann::ordered_json scenario = {{"id", s.id},
                           {"family", s.family->name},
                           {"params", params},
                           {"control", s.control ? nlohmann::ordered_json(s.control->describe()) : nullptr},
                           {"excluded", s.excluded_reason},
                           {"min_runtime", s.requirements.min_runtime},
                           {"min_driver", s.requirements.min_driver},
                           {"min_devices", s.requirements.min_devices},
                           {"timeout_s", s.timeout_s},
                           {"runs_alone", runs_alone(s)}};
      if (marks.expectations) {
        const Expectation* e = marks.by_scenario[&s - plan.data()];
        scenario["expectation_line"] = e ? nlohmann::ordered_json(e->line) : nlohmann::ordered_json(nullptr);
      }
      std::string entry = "    ";  // two levels deep: every line of it 4 spaces in (a dump has no raw newline in a string)
      for (char c : scenario.dump(2)) entry += c == '\n' ? std::string("\n    ") : std::string(1, c);
      std::cout << separator << entry;
      separator = ",\n";
    }
    std::cout << "\n  ]\n}\n";
  }

  // "expectations" in list --format json: the file, and each entry with what it names and
  // whether it applies here; a scenario's "expectation_line" is the entry that marks it.
  static nlohmann::ordered_json expectations_json(const Marks& marks) {
    const Expectations& ex = *marks.expectations;
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < ex.entries.size(); ++i) {
      const Expectation& e = ex.entries[i];
      std::vector<std::string> expect;
      for (Status s : e.expect) expect.emplace_back(status_name(s));
      entries.push_back({{"line", e.line},
                         {"ids", e.id_patterns},
                         {"expect", expect},
                         {"reason", e.reason},
                         {"link", e.link},
                         {"applies", marks.why_not[i].empty()},
                         {"why_not", marks.why_not[i]},
                         {"scenarios", marks.count[i]}});
    }
    return {{"path", ex.path}, {"entries", entries}};
  }

  SelectionOptions selection_;
  std::string expectations_name_;
  CLI::Option* expectations_option_ = nullptr;
  std::string format_ = "text";
  bool families_ = false;
  std::vector<std::string> adapters_;
};

}  // namespace

std::unique_ptr<Command> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace hostcb
