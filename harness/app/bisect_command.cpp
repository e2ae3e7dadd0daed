// hostcb bisect ID --wheels DIR: the release of a Python layer where a scenario's result
// changes. DIR holds one folder of wheels per version (as scripts/layers.sh --wheels reads
// them); each version is installed once, with pip, into a folder of its own under --out,
// and the scenario runs there in a `hostcb run` of its own (the layer's package on
// PYTHONPATH): as few versions as halving needs (app/bisect.hpp), or every one (--all).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/bisect.hpp"
#include "app/child_command.hpp"
#include "app/cli.hpp"
#include "app/command.hpp"
#include "app/options.hpp"
#include "exec/interrupt.hpp"
#include "model/defaults.hpp"
#include "model/errors.hpp"
#include "model/version_specifier.hpp"
#include "reports/results_file.hpp"

namespace hostcb {

namespace {

namespace fs = std::filesystem;

struct LayerVersion {
  std::string name;     // as written: the folder's name, or its wheel's version
  Version version;
  fs::path folder;
};

// A version folder's version: its name, when that is a PEP 440 version, else the version
// its wheels share. A folder whose wheels name several (the layer and its dependencies at
// versions of their own) says nothing on its own: it must be named by the layer's version.
std::optional<Version> folder_version(const fs::path& folder, std::string& name) {
  name = folder.filename().string();
  if (auto v = Version::parse(name)) return v;
  std::set<std::string> fields;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string wheel = entry.path().filename().string();
    const std::size_t dash = wheel.find('-');
    if (entry.path().extension() != ".whl" || dash == std::string::npos) continue;
    fields.insert(wheel.substr(dash + 1, wheel.find('-', dash + 1) - dash - 1));
  }
  if (fields.size() != 1) return std::nullopt;
  name = *fields.begin();
  return Version::parse(name);
}

std::vector<LayerVersion> versions_in(const std::string& wheels) {
  std::error_code ec;
  if (!fs::is_directory(wheels, ec)) throw UsageError("--wheels " + wheels + ": no such folder");
  std::vector<LayerVersion> found;
  for (const auto& entry : fs::directory_iterator(wheels)) {
    if (!entry.is_directory()) continue;
    std::string name;
    std::optional<Version> v = folder_version(entry.path(), name);
    if (!v)
      throw UsageError("--wheels: folder '" + entry.path().filename().string() +
                       "' is named by no PEP 440 version, and its wheels do not share one: name it by the layer's version");
    found.push_back({name, *v, entry.path()});
  }
  std::sort(found.begin(), found.end(),
            [](const LayerVersion& a, const LayerVersion& b) { return compare(a.version, b.version) < 0; });
  for (std::size_t i = 1; i < found.size(); ++i)
    if (compare(found[i - 1].version, found[i].version) == 0)
      throw UsageError("--wheels: folders '" + found[i - 1].folder.filename().string() + "' and '" +
                       found[i].folder.filename().string() + "' are the same version, " + found[i].version.str());
  if (found.size() < 2)
    throw UsageError("--wheels " + wheels + ": " + std::to_string(found.size()) +
                     " version folder(s); bisect needs two or more");
  return found;
}

// The value of `axis` in a scenario id ("" if it has none).
std::string axis_value(const std::string& id, const std::string& axis) {
  const std::string key = "/" + axis + "=";
  const std::size_t at = id.find(key);
  if (at == std::string::npos) return "";
  const std::size_t begin = at + key.size();
  return id.substr(begin, id.find('/', begin) - begin);
}

// --adapter's default: the shipped layer module the id's forward= names, by its ready
// name (cuda_bindings_runtime -> cuda_bindings:runtime resolves to the same module).
std::string default_adapter(const std::string& id) {
  const std::string forward = axis_value(id, "forward");
  if (forward.empty()) throw UsageError("'" + id + "' has no forward= axis: give the layer with --adapter");
  for (const char* builtin : {"direct", "oneshot", "graph_owned"})
    if (forward == builtin)
      throw UsageError("forward=" + forward + " is built into hostcb: bisect runs a Python layer's releases");
  // The layer is the longest of the shipped layers' names the module's starts with (as
  // scripts/layers.sh names them); any split names the same module, this one reads right.
  std::string layer;
  for (const char* known : {"cuda_bindings", "cuda_core", "numba_cuda_mlir", "numba", "cupy"})
    if (forward.rfind(std::string(known) + "_", 0) == 0 && std::string(known).size() > layer.size()) layer = known;
  if (layer.empty()) layer = forward.substr(0, forward.find('_'));
  if (layer.size() + 1 >= forward.size())
    throw UsageError("forward=" + forward + " is no shipped layer module's name: give the layer with --adapter");
  return layer + ":" + forward.substr(layer.size() + 1);
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

class BisectCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* bisect = app.add_subcommand("bisect", "find the release of a Python layer where a scenario's result changes");
    bisect->add_option("id", id_, "the scenario's id, as a run printed it")->required()->type_name("ID");
    bisect->add_option("--wheels", wheels_, "one folder per layer version, holding its wheels (and dependencies)")
        ->required()
        ->type_name("DIR");
    bisect->add_option("--adapter", adapter_,
                       "the layer, as run --adapter takes it (default: the ready name of the id's forward= module)")
        ->type_name("SPEC");
    bisect->add_option("--python", python_, "the python3 to install with and run the layer in (default: HOSTCB_PYTHON, "
                                            "else python3 on PATH)")
        ->type_name("PATH");
    bisect->add_option("--repeat", repeat_, "run the scenario N times in each version: bad if any run is (flaky bugs)")
        ->check(CLI::Range(1, 1000))
        ->type_name("N");
    bisect->add_flag("--all", all_, "run every version, and print each one's result");
    bisect->add_option("--out", out_, "where installs, logs and results go (kept: a second bisect reuses the installs)")
        ->type_name("DIR");
    bisect->footer(
        "Versions are ordered by PEP 440 (a folder's name, else its wheels' version). Each is installed with\n"
        "`python3 -m pip install --no-index --no-deps --target OUT/site-VERSION DIR/VERSION/*.whl` and the id runs\n"
        "there: `hostcb run --filter ID --adapter SPEC --no-expectations`, PYTHONPATH=OUT/site-VERSION. passed is\n"
        "good, failed or error bad; a version that is skipped, will not install or writes no results cannot be\n"
        "judged, and bisect steps over it. Without --all: the oldest and newest, then halves between the last pair\n"
        "that differ. Prints every version's result, then 'last good A, first bad B' (or 'last bad A, first good B'\n"
        "for a fix).\n"
        "Exit codes: 0 a boundary found, 1 none (the ends agree, or --all saw more than one change), 2 usage error\n"
        "(nothing ran; or the first two runs refused their command line), 77 every version skipped (no usable GPU),\n"
        "130/143 interrupted.");
    return bisect;
  }

  int run(const Registry& registry, const std::string&) override {
    const std::string family = id_.substr(0, id_.find('/'));
    const auto& families = registry.families();
    if (std::none_of(families.begin(), families.end(), [&](const Family& f) { return f.name == family; }))
      throw UsageError("'" + id_ + "': no family '" + family + "' (hostcb list --families)");
    if (adapter_.empty()) adapter_ = default_adapter(id_);
    if (python_.empty()) {  // the adapter's own default is python3 on PATH too
      const char* from_environment = std::getenv("HOSTCB_PYTHON");
      python_ = from_environment && *from_environment ? from_environment : "";
    }
    versions_ = versions_in(wheels_);
    std::error_code ec;
    fs::create_directories(out_, ec);
    if (ec) throw UsageError("--out " + out_ + ": " + ec.message());
    out_ = fs::absolute(out_).lexically_normal().string();

    std::cout << "bisect: " << id_ << "\n  through " << adapter_ << ", " << versions_.size() << " versions (oldest first):";
    for (const auto& v : versions_) std::cout << " " << v.name;
    std::cout << "\n" << std::flush;
    int usage_refusals = 0, skips = 0, ran = 0;
    const Bisection b = bisect_versions(
        versions_.size(),
        [&](std::size_t i) {
          if (interrupt_signal()) return VersionOutcome{BisectVerdict::unknown, "not run: interrupted"};
          ++ran;
          VersionOutcome o = judge(versions_[i], usage_refusals, skips);
          // Both ends refusing the command line is the command's fault, not the versions'.
          if (ran == 2 && usage_refusals == 2)
            throw UsageError("bisect: the runs of the first two versions both refused their command line: " +
                             first_refusal_);
          std::cerr << "bisect: " << versions_[i].name << ": " << bisect_verdict_name(o.verdict) << ": " << o.detail
                    << "\n";
          return o;
        },
        all_);
    if (int signal = interrupt_signal()) return exit_code_for_signal(signal);

    std::size_t width = 0;
    for (const auto& v : versions_) width = std::max(width, v.name.size());
    for (std::size_t i = 0; i < versions_.size(); ++i) {
      const auto& o = b.outcomes[i];
      std::cout << "  " << versions_[i].name << std::string(width - versions_[i].name.size() + 2, ' ')
                << (o ? bisect_verdict_name(o->verdict) : "-") << std::string(o ? 9 - std::string(bisect_verdict_name(o->verdict)).size() : 8, ' ')
                << (o ? o->detail : "not run") << "\n";
    }
    std::cout << "  logs, results and installs in " << out_ << "\n";
    if (!b.before) {
      std::cout << "no boundary: " << b.why_none << " (" << ran << " of " << versions_.size() << " versions run)\n";
      if (skips == ran) {
        std::cout << "exit 77: nothing could be judged: every run was skipped\n";
        return kExitNothingRan;
      }
      std::cout << "exit 1\n";
      return kExitFailed;
    }
    const bool fix = b.outcomes[*b.before]->verdict == BisectVerdict::bad;
    const std::string& before = versions_[*b.before].name;
    const std::string& after = versions_[*b.after].name;
    std::cout << (fix ? "last bad " : "last good ") << before << ", first " << (fix ? "good " : "bad ") << after
              << " (" << ran << " of " << versions_.size() << " versions run"
              << (b.between_unknown ? "; the versions between could not be judged" : "") << ")\n"
              << "rerun one: PYTHONPATH=" << out_ << "/site-" << after
              << (python_.empty() ? "" : " HOSTCB_PYTHON=" + python_) << " hostcb run --filter '" << id_
              << "' --adapter '" << adapter_ << "'\nexit 0\n";
    return kExitPassed;
  }

 private:
  // Installs `v` (once) and runs the id there.
  VersionOutcome judge(const LayerVersion& v, int& usage_refusals, int& skips) {
    const std::string site = out_ + "/site-" + v.name;
    // An install is reused only by the same python from the same folder (another python's
    // would import as an error, which bisect would take for a bad release).
    const std::string stamp = site + "/.hostcb-installed";
    const std::string made_by = "installed from " + v.folder.string() + " by " + (python_.empty() ? "python3" : python_);
    std::string stamped;
    std::getline(std::ifstream(stamp), stamped);
    if (stamped != made_by) {
      std::error_code ec;
      fs::remove_all(site, ec);
      std::vector<std::string> pip = {python_.empty() ? "python3" : python_, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                                      "--no-compile", "--target", site};
      std::vector<std::string> wheels;
      for (const auto& entry : fs::directory_iterator(v.folder))
        if (entry.path().extension() == ".whl") wheels.push_back(entry.path().string());
      if (wheels.empty()) return {BisectVerdict::unknown, "not installed: no wheel in " + v.folder.string()};
      std::sort(wheels.begin(), wheels.end());
      pip.insert(pip.end(), wheels.begin(), wheels.end());
      const std::string log = out_ + "/install-" + v.name + ".log";
      const ChildEnd end = run_child(pip, {}, log);
      if (end.exit_code != 0) return {BisectVerdict::unknown, "not installed (" + end.how + "): " + last_line_of(log)};
      std::ofstream(stamp) << made_by << "\n";
    }
    const std::string json = out_ + "/" + v.name + ".json", log = out_ + "/" + v.name + ".log";
    std::error_code ec;
    fs::remove(json, ec);
    std::vector<std::string> argv = {"/proc/self/exe", "run",   "--filter", id_, "--adapter", adapter_,
                                     "--no-expectations", "-j", "1",       "--json", json};
    if (repeat_ > 1) argv.insert(argv.end(), {"--repeat", std::to_string(repeat_)});
    const char* old_path = std::getenv("PYTHONPATH");
    std::map<std::string, std::string> environment = {
        {"PYTHONPATH", site + (old_path && *old_path ? std::string(":") + old_path : "")}};
    if (!python_.empty()) environment["HOSTCB_PYTHON"] = python_;
    const ChildEnd end = run_child(argv, environment, log);
    if (end.exit_code == kExitUsage && !fs::exists(json)) {
      ++usage_refusals;
      if (first_refusal_.empty()) first_refusal_ = last_line_of(log);
    }
    std::vector<Result> results;
    try {
      if (fs::exists(json)) results = read_results_file(json).results;
    } catch (const std::exception& e) {
      return {BisectVerdict::unknown, std::string("unreadable results: ") + e.what()};
    }
    std::vector<Status> statuses;
    for (const auto& r : results)
      if (r.id == id_) statuses.push_back(r.status);
    if (statuses.empty())
      return {BisectVerdict::unknown, "no result (hostcb run " + end.how + "): " + last_line_of(log)};
    const Status worst = worst_status(statuses);
    std::string detail = status_name(worst);
    for (const auto& r : results)
      if (r.id == id_ && r.status == worst) {
        const std::string why = !r.reason.empty() ? r.reason : r.failures.empty() ? "" : r.failures.front().message;
        if (!why.empty()) detail += ": " + first_line(why);
        break;
      }
    if (statuses.size() > 1) detail += " (worst of " + std::to_string(statuses.size()) + " runs)";
    if (worst == Status::passed) return {BisectVerdict::good, detail};
    if (worst == Status::failed || worst == Status::error) return {BisectVerdict::bad, detail};
    if (worst == Status::skipped) ++skips;
    return {BisectVerdict::unknown, detail};
  }

  std::string id_, wheels_, adapter_, python_, out_ = "bisect-results";
  std::string first_refusal_;  // the first run's line when it refused its command line (exit 2)
  int repeat_ = 1;
  bool all_ = false;
  std::vector<LayerVersion> versions_;
};

}  // namespace

std::unique_ptr<Command> make_bisect_command() { return std::make_unique<BisectCommand>(); }

}  // namespace hostcb
