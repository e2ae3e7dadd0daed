// hostcb repro ID: writes a standalone program that does what scenario ID does through its
// layer and checks what it checks, for an upstream report: Python (the layer module's
// source embedded, CUDA through cuda.bindings) for a Python layer, C++ (one nvcc command)
// for a plugin of the adapter ABI or the `direct` baseline. The steps are the family's
// (repro/family_steps.cpp); the languages are repro/*_writer.cpp.
#include <unistd.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/command.hpp"
#include "app/options.hpp"
#include "cuda/adapter_names.hpp"
#include "model/errors.hpp"
#include "reports/input_file.hpp"
#include "repro/family_steps.hpp"

namespace hostcb {

namespace {

namespace fs = std::filesystem;

// The id with `axis`'s value replaced (the registry knows the built-in layers only:
// repro loads none, so the id is checked with forward=direct in its place).
std::string with_value(const std::string& id, const std::string& axis, const std::string& value, std::string& old) {
  const std::string key = "/" + axis + "=";
  const std::size_t at = id.find(key);
  if (at == std::string::npos) return id;
  const std::size_t begin = at + key.size(), end = id.find('/', begin);
  old = id.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  return id.substr(0, begin) + value + (end == std::string::npos ? "" : id.substr(end));
}

// Where hostcb/adapter.h is: an installation's include/, else this source tree's.
std::string adapter_header_folder() {
  char exe[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::vector<fs::path> candidates;
  if (n > 0) candidates.push_back(fs::path(std::string(exe, static_cast<std::size_t>(n))).parent_path() / ".." / "include");
  candidates.push_back(fs::path(HOSTCB_SOURCE_DIR) / "harness" / "include");
  for (const auto& c : candidates)
    if (fs::exists(c / "hostcb" / "adapter.h")) return fs::weakly_canonical(c).string();
  return "INCLUDE_DIR_OF_hostcb/adapter.h";
}

class ReproCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* repro = app.add_subcommand("repro", "write a standalone program that reproduces one scenario through its layer");
    repro->add_option("id", id_, "the scenario's id, as a run printed it")->required()->type_name("ID");
    repro->add_option("--adapter", adapter_,
                      "the layer, as run --adapter takes it: a ready name (cuda_bindings:runtime) or a plugin PATH.so[@OPTIONS] "
                      "(default: the shipped layer module the id's forward= names)")
        ->type_name("SPEC");
    repro->add_option("--out", out_, "the folder to write repro.py or repro.cpp into (default: the working folder)")
        ->type_name("DIR");
    repro->footer(
        "Python layers (forward= a shipped layer module, or --adapter LAYER:ENTRY): repro.py, which needs the layer's\n"
        "package and cuda-bindings: the module's source is embedded and CUDA's own calls go through cuda.bindings.runtime.\n"
        "Run it with `python3 repro.py`. A plugin (--adapter PATH.so) or forward=direct: repro.cpp and the nvcc\n"
        "command that builds it against the plugin's library and hostcb/adapter.h.\n"
        "The program does what the scenario does (the same graphs, launches and layer operations) and checks\n"
        "what it checks after each synchronize, never inside a callback. It exits 0 when every check holds and 1\n"
        "at the first that fails, printing it; a crash stays a crash.\n"
        "Families with steps: " + repro::families_with_steps() + ".\n"
        "Exit codes: 0 written, 2 usage error (unknown id, a family or layer with no reproducer yet; nothing written).");
    return repro;
  }

  int run(const Registry& registry, const std::string&) override {
    std::string forward;
    const std::string checkable = with_value(id_, "forward", "direct", forward);
    if (forward.empty()) throw UsageError("'" + id_ + "' has no forward= axis: a reproducer is of a layer's scenario");
    const Scenario scenario = registry.resolve(checkable);
    Params params;
    for (const auto& [axis, value] : scenario.params.items()) params.add(axis, axis == "forward" ? forward : value);

    const Target target = target_for(forward);
    repro::Header header;
    header.id = id_;
    header.summary = scenario.family->summary;
    header.layer = forward;
    std::error_code ec;
    fs::create_directories(out_, ec);
    if (ec) throw UsageError("--out " + out_ + ": " + ec.message());
    const fs::path file = fs::absolute(fs::path(out_) / (target.python ? "repro.py" : "repro.cpp")).lexically_normal();
    const fs::path binary = file.parent_path() / "repro";
    if (target.python) {
      header.command = "python3 " + shell_quoted({file.string()});
    } else if (target.plugin.empty()) {
      header.command = "nvcc -o " + shell_quoted({binary.string()}) + " " + shell_quoted({file.string()}) + " && " +
                       shell_quoted({binary.string()});
    } else {
      const fs::path library = fs::absolute(target.plugin);
      header.command = "nvcc -o " + shell_quoted({binary.string()}) + " " + shell_quoted({file.string()}) + " -I" +
                       shell_quoted({adapter_header_folder()}) + " " + shell_quoted({library.string()}) + " -Xlinker -rpath," +
                       shell_quoted({library.parent_path().string()}) + " && " + shell_quoted({binary.string()});
    }
    std::unique_ptr<repro::Writer> writer =
        target.python ? repro::python_writer(read_input_file(target.module.string(), "layer module", 1 << 20))
                      : repro::cpp_writer(!target.plugin.empty(), target.options);
    repro::write_steps(scenario.family->name, params, header, *writer);
    const std::string program = writer->finish();
    std::ofstream(file) << program;
    if (!fs::exists(file) || fs::file_size(file) != program.size()) throw UsageError("cannot write " + file.string());
    std::cout << "repro: wrote " << file.string() << " (" << program.size() << " bytes)\n"
              << "  " << (target.python ? "run it" : "build and run it") << ": " << header.command << "\n";
    return 0;
  }

 private:
  struct Target {
    bool python = false;
    fs::path module;      // python: the layer module's file
    std::string plugin;   // C++: the plugin library ("" for forward=direct)
    std::string options;  // its init options
  };

  // What the program is written against: the layer the id's forward= names, or --adapter.
  Target target_for(const std::string& forward) const {
    Target t;
    if (adapter_.empty()) {
      if (forward == "direct") return t;
      const fs::path module = fs::path(python_adapters_folder(forward)) / "python" / "hostcb_layers" / (forward + ".py");
      if (!fs::exists(module))
        throw UsageError("forward=" + forward + " is no shipped layer module" +
                         (forward == "oneshot" || forward == "graph_owned" ? " (it is built into hostcb, a layer of its own)"
                                                                           : "") +
                         ": give the layer with --adapter (a ready name or a plugin PATH.so)");
      t.python = true;
      t.module = module;
      return t;
    }
    const std::size_t at = adapter_.find('@');
    const std::string spec = adapter_.substr(0, at);
    if (is_ready_name(adapter_)) {
      const std::size_t colon = spec.find(':');
      const std::string module_name = spec.substr(0, colon) + "_" + spec.substr(colon + 1);
      t.module = fs::path(python_adapters_folder(spec)) / "python" / "hostcb_layers" / (module_name + ".py");
      if (!fs::exists(t.module)) throw UsageError("--adapter " + spec + ": no " + t.module.string());
      if (module_name != forward)
        throw UsageError("--adapter " + spec + " is the layer " + module_name + ", but the id's forward= is " + forward);
      t.python = true;
      return t;
    }
    // The Python adapter library with a module named in its options: that module's source.
    const std::string options = at == std::string::npos ? "" : adapter_.substr(at + 1);
    const std::size_t module_at = options.find("module=");
    if (module_at != std::string::npos) {
      const std::string module = options.substr(module_at + 7, options.find(',', module_at) - module_at - 7);
      const std::string shipped = "hostcb_layers.";
      if (module.rfind(shipped, 0) != 0)
        throw UsageError("--adapter " + adapter_ + ": repro reads a layer module's source from hostcb's own "
                         "hostcb_layers/, and " + module + " is not there");
      t.module = fs::path(python_adapters_folder(spec)) / "python" / "hostcb_layers" /
                 (module.substr(shipped.size()) + ".py");
      if (!fs::exists(t.module)) throw UsageError("--adapter " + adapter_ + ": no " + t.module.string());
      t.python = true;
      return t;
    }
    if (!fs::exists(spec)) throw UsageError("--adapter " + spec + ": no such file (a plugin PATH.so, or a ready name LAYER:ENTRY)");
    if (spec.size() < 3 || spec.compare(spec.size() - 3, 3, ".so") != 0)
      throw UsageError("--adapter " + spec + ": repro writes for a plugin (PATH.so) or a ready name (LAYER:ENTRY)");
    t.plugin = spec;
    t.options = options;
    return t;
  }

  std::string id_, adapter_, out_ = ".";
};

}  // namespace

std::unique_ptr<Command> make_repro_command() { return std::make_unique<ReproCommand>(); }

}  // namespace hostcb
