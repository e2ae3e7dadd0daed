// hostcb list: the scenarios a selection names (ids, or JSON), or the families.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/options.hpp"
#include "cuda/adapter_loader.hpp"
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
    list->footer(std::string(kFilterHelp) +
                 "\nThe ids go to stdout, one per line; the total goes to stderr.\n"
                 "Exit codes: 0 listed, 1 stdout could not be written (list | head), 2 usage error, 130/143 interrupted.");
    return list;
  }
  std::vector<std::string> adapters() const override { return adapters_; }

  int run(const Registry& registry, const std::string&) override {
    std::vector<Scenario> plan = make_plan(registry, selection_);
    if (format_ == "json") {
      print_json(registry, plan);
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
        std::cout << "\n";
      }
      std::cout.flush();
      std::cerr << plan.size() << " scenarios (" << excluded << " excluded, " << controls << " known-bad controls)\n";
    }
    return kExitPassed;
  }

 private:
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
  static void print_json(const Registry& registry, const std::vector<Scenario>& plan) {
    nlohmann::ordered_json families = nlohmann::ordered_json::array();
    for (const auto& f : registry.families())
      families.push_back({{"name", f.name}, {"summary", f.summary}, {"fresh_process", f.fresh_process}, {"axes", axes_json(f)}});
    // The adapters loaded, by the forward-axis name each took: what a tool needs to pick a
    // layer's scenarios from the listing (the pytest plugin does).
    nlohmann::ordered_json adapters = nlohmann::ordered_json::array();
    for (const auto& a : loaded_adapters()) adapters.push_back({{"name", a.name}, {"path", a.path}, {"describe", a.describe}});
    nlohmann::ordered_json head = {{"format", "hostcb-list"}, {"format_version", 1}, {"adapters", adapters},
                                   {"families", families},   {"scenarios", nullptr}};
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
      std::string entry = "    ";  // two levels deep: every line of it 4 spaces in (a dump has no raw newline in a string)
      for (char c : scenario.dump(2)) entry += c == '\n' ? std::string("\n    ") : std::string(1, c);
      std::cout << separator << entry;
      separator = ",\n";
    }
    std::cout << "\n  ]\n}\n";
  }

  SelectionOptions selection_;
  std::string format_ = "text";
  bool families_ = false;
  std::vector<std::string> adapters_;
};

}  // namespace

std::unique_ptr<Command> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace hostcb
