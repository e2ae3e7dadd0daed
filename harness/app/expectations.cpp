#include "app/expectations.hpp"

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <sstream>
#include <unordered_set>

#include "app/options.hpp"
#include "cuda/adapter_loader.hpp"
#include "model/errors.hpp"
#include "model/filter.hpp"
#include "model/json_input.hpp"
#include "model/suggest.hpp"
#include "reports/input_file.hpp"

namespace hostcb {

namespace {

using Json = nlohmann::ordered_json;
constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;

// Dotted numbers, each of any length (model/version_specifier.hpp reads them).
bool is_version(const std::string& text) { return parse_release(text).has_value(); }

// Where things are in the file, for messages: the start of every entry (an object two
// levels down: root object, "expectations" array, entry), skipping strings and comments.
struct SourceMap {
  const std::string& text;
  std::vector<std::size_t> entry_starts;
  std::vector<int> entry_lines;  // counted in the same pass: counting per entry is quadratic
  std::map<std::string, std::size_t> top_keys;  // strings in the root object, outside comments

  explicit SourceMap(const std::string& source) : text(source) {
    int depth = 0;
    int line = 1;
    std::size_t counted = 0;  // line ends before `counted` are in `line`
    walk_json(
        text, true,
        [&](std::size_t at, char c) {
          if (c == '{' || c == '[') {
            if (c == '{' && depth == 2) {
              entry_starts.push_back(at);
              line += static_cast<int>(line_ends(text, counted, at));
              counted = at;
              entry_lines.push_back(line);
            }
            ++depth;
          } else {
            --depth;
          }
          return true;
        },
        [&](std::size_t open, std::size_t close) {  // a key or value: both point here
          if (depth == 1) top_keys.emplace(text.substr(open + 1, close - open - 1), open);
        });
  }
  // "LINE:COLUMN" of entry `index`, or of its key `key` when the entry has it.
  std::string where(std::size_t index, const std::string& key = "") const {
    if (index >= entry_starts.size()) return "1:1";
    std::size_t at = entry_starts[index];
    if (!key.empty()) {
      std::size_t end = index + 1 < entry_starts.size() ? entry_starts[index + 1] : text.size();
      std::size_t found = text.find('"' + key + '"', at);
      if (found != std::string::npos && found < end) at = found;
    }
    return position(at);
  }
  std::string position(std::size_t offset) const { return line_column(text, offset); }
  int line_of(std::size_t index) const { return index < entry_lines.size() ? entry_lines[index] : 1; }
};

[[noreturn]] void fail_at(const std::string& path, const std::string& where, const std::string& what) {
  throw UsageError(str(path, ":", where, ": ", what));
}

std::optional<VersionRange> read_range(const Json& entry, const char* key, const std::string& path,
                                       const SourceMap& map, std::size_t index) {
  if (!entry.contains(key)) return std::nullopt;
  const auto& j = entry.at(key);
  if (!j.is_object()) fail_at(path, map.where(index, key), str("\"", key, "\" must be an object with \"min\" and/or \"max\""));
  VersionRange range;
  for (const auto& [bound, value] : j.items()) {
    if (bound != "min" && bound != "max")
      fail_at(path, map.where(index, key), str("\"", key, "\" takes \"min\" and \"max\", not \"", bound, "\""));
    if (!value.is_string() || !is_version(value.get<std::string>()))
      fail_at(path, map.where(index, key), str("\"", key, ".", bound, "\" must be a version string like \"12.4\" or \"580.159.04\""));
    (bound == "min" ? range.min : range.max) = value.get<std::string>();
  }
  // Prefixes compare as ranges: min "12.4" and max "12" is 12.4 to 12.x, not empty.
  if (!range.min.empty() && !range.max.empty() && compare_version_prefix(range.min, range.max) > 0)
    fail_at(path, map.where(index, key), str("\"", key, "\" has min \"", range.min, "\" above max \"", range.max,
                                             "\": it never applies"));
  return range;
}

// "layers" (package -> range) or "axes" (axis -> range): an object of version ranges.
std::vector<std::pair<std::string, VersionSpecifier>> read_ranges(const Json& entry, const char* key, const char* names,
                                                                   const char* example, const std::string& path,
                                                                   const SourceMap& map, std::size_t index) {
  std::vector<std::pair<std::string, VersionSpecifier>> ranges;
  if (!entry.contains(key)) return ranges;
  const auto& j = entry.at(key);
  if (!j.is_object() || j.empty())
    fail_at(path, map.where(index, key), str("\"", key, "\" must be an object of ", names, " and version ranges"));
  for (const auto& [name, range] : j.items()) {
    if (!range.is_string())
      fail_at(path, map.where(index, key), str("\"", key, ".", name, "\" must be a version range like \"", example, "\""));
    try {
      ranges.emplace_back(name, VersionSpecifier::parse(range.get<std::string>()));
    } catch (const std::invalid_argument& e) {
      fail_at(path, map.where(index, key), str("\"", key, ".", name, "\": ", e.what()));
    }
  }
  return ranges;
}

// "id": one glob, or a list of them.
std::vector<std::string> read_ids(const Json& entry, const std::string& path, const SourceMap& map, std::size_t index) {
  static const Json none;
  const Json& id = entry.contains("id") ? entry.at("id") : none;
  std::vector<std::string> ids;
  if (id.is_string()) {
    ids.push_back(id.get<std::string>());
  } else if (id.is_array()) {
    for (const auto& glob : id) ids.push_back(glob.is_string() ? glob.get<std::string>() : "");
  }
  if (ids.empty() || std::any_of(ids.begin(), ids.end(), [](const std::string& glob) { return glob.empty(); }))
    fail_at(path, map.where(index, "id"), "\"id\" must be a glob over scenario ids, or a list of them, none empty");
  return ids;
}

Expectation read_entry(const Json& entry, const std::string& path, const SourceMap& map, std::size_t index) {
  static const std::set<std::string> known = {"id", "axes", "driver", "runtime", "layers", "expect", "reason", "link"};
  if (!entry.is_object()) fail_at(path, map.where(index), "each expectation must be an object");
  for (const auto& [key, value] : entry.items())
    if (!known.count(key))
      fail_at(path, map.where(index, key),
              str("unknown key \"", key, "\" (known: id, axes, driver, runtime, layers, expect, reason, link)"));
  Expectation e;
  e.line = map.line_of(index);
  e.id_patterns = read_ids(entry, path, map, index);
  for (const char* key : {"reason", "link"}) {
    const bool optional = std::string(key) == "link";
    if (optional && !entry.contains(key)) continue;
    if (!entry.contains(key) || !entry.at(key).is_string() || entry.at(key).get<std::string>().empty())
      fail_at(path, map.where(index, key), str("\"", key, "\" must be a non-empty string", optional ? " (or left out)" : ""));
  }
  e.reason = entry.at("reason").get<std::string>();
  if (entry.contains("link")) e.link = entry.at("link").get<std::string>();
  e.axes = read_ranges(entry, "axes", "axis names", ">=2", path, map, index);
  e.driver = read_range(entry, "driver", path, map, index);
  e.runtime = read_range(entry, "runtime", path, map, index);
  e.layers = read_ranges(entry, "layers", "package names", ">=13.0,<13.5", path, map, index);
  static const Json none;
  const Json& expect = entry.contains("expect") ? entry.at("expect") : none;
  if (!expect.is_array() || expect.empty())
    fail_at(path, map.where(index, "expect"), "\"expect\" must be a list of results: \"failed\", \"error\"");
  for (const auto& value : expect) {
    std::string name = value.is_string() ? value.get<std::string>() : value.dump().substr(0, 40);
    std::optional<Status> status = kStatuses.find(name);
    if (status == Status::failed || status == Status::error)
      e.expect.push_back(*status);
    else
      fail_at(path, map.where(index, "expect"), str("\"expect\" lists \"", name, "\"; known results: failed, error"));
  }
  return e;
}

// An entry whose every glob an earlier entry with the same conditions has never applies:
// the first one wins. Keyed by conditions and glob, so 150,000 entries for one id cost a
// map, not their square.
std::vector<std::string> duplicate_warnings(const Expectations& expectations) {
  auto range_key = [](const std::optional<VersionRange>& r) { return r ? "[" + r->min + "," + r->max + "]" : std::string("-"); };
  auto ranges_key = [](const std::vector<std::pair<std::string, VersionSpecifier>>& ranges) {
    std::string key;  // entries for other axis values or layer versions are no duplicates
    for (const auto& [name, range] : ranges) key += name + "=" + range.text() + ";";
    return key;
  };
  std::vector<std::string> warnings;
  std::map<std::string, const Expectation*> first_with;
  for (const auto& e : expectations.entries) {
    const std::string conditions = range_key(e.driver) + " " + range_key(e.runtime) + " " + ranges_key(e.layers) + " " +
                                   ranges_key(e.axes) + " ";
    const Expectation* earlier = nullptr;
    bool shadowed = true;
    for (const auto& glob : e.id_patterns) {  // the glob last: it may hold any character
      auto [it, fresh] = first_with.emplace(conditions + glob, &e);
      if (fresh || it->second == &e) {
        shadowed = false;
      } else if (!earlier) {
        earlier = it->second;
      }
    }
    if (shadowed && earlier)
      warnings.push_back(str(expectations.path, ":", e.line, ": warning: the same ", e.id_patterns.size() > 1 ? "ids" : "id",
                             " and versions as the entry at line ", earlier->line, ": this one never applies"));
  }
  return warnings;
}

bool is_literal(const std::string& glob) { return glob.find_first_of("*?") == std::string::npos; }

// The entries by glob, in file order, so that a lookup costs one match per distinct
// glob with a wildcard, and one hash lookup for all the exact ids.
void index_entries(Expectations& expectations) {
  std::map<std::string, std::size_t> glob_slot;
  for (std::size_t i = 0; i < expectations.entries.size(); ++i) {
    for (const std::string& glob : expectations.entries[i].id_patterns) {
      auto add = [i](std::vector<std::size_t>& entries) {
        if (entries.empty() || entries.back() != i) entries.push_back(i);  // one glob twice in an entry
      };
      if (is_literal(glob)) {
        add(expectations.exact_ids[glob]);
        continue;
      }
      auto [it, fresh] = glob_slot.emplace(glob, expectations.globs.size());
      if (fresh) expectations.globs.push_back({glob, {}});
      add(expectations.globs[it->second].second);
    }
  }
}

// Whether the scenario's axis values are in the entry's axis ranges.
bool axes_hold(const Expectation& e, const Params& params) {
  for (const auto& [axis, range] : e.axes)
    if (!params.has(axis) || !range.contains(params.get(axis))) return false;
  return true;
}

// The version of `package` that a loaded layer reports, in load order; nullptr when none does.
const std::string* reported_version(const Environment& env, const std::string& package) {
  for (const auto& adapter : env.adapters)
    for (const auto& [name, version] : adapter.versions)
      if (name == package) return &version;
  return nullptr;
}

// The folder of the running binary ("" when unknown).
std::string binary_folder() {
  char exe[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "";
  const std::string path(exe, static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/'));
}

}  // namespace

// What harness/adapters/python/hostcb_layers/*.py report, and the CCCL plugins' "cccl";
// tests/test_expectations.cpp fails when a module reports a name not listed here.
const std::vector<std::string> kKnownLayerPackages = {
    "cccl",         "cuda-bindings", "cuda-core", "cuda-python",     "cupy",
    "cupy-cuda12x", "cupy-cuda13x",  "numba",     "numba-cuda",      "numba-cuda-mlir", "python"};

void check_layer_packages(const Expectations& expectations, const Environment& env) {
  std::vector<std::string> known = kKnownLayerPackages;
  for (const auto& adapter : env.adapters)
    for (const auto& [name, version] : adapter.versions) known.push_back(name);
  for (const auto& e : expectations.entries)
    for (const auto& [package, range] : e.layers) {
      if (std::find(known.begin(), known.end(), package) != known.end()) continue;
      std::string hint = closest_match(package, known);
      throw UsageError(str(expectations.path, ":", e.line, ": unknown layer package \"", package, "\"",
                           hint.empty() ? "" : str("; did you mean \"", hint, "\"?"),
                           " (known: the packages hostcb's layers report, and those of the layers loaded)"));
    }
}

int compare_version_prefix(const std::string& version, const std::string& bound) {
  const std::vector<Number> v = parse_release(version).value_or(std::vector<Number>{}),
                            b = parse_release(bound).value_or(std::vector<Number>{});
  for (std::size_t i = 0; i < b.size(); ++i)
    if (int c = compare_numbers(i < v.size() ? v[i] : Number("0"), b[i])) return c;
  return 0;
}

bool VersionRange::contains(const std::string& version) const {
  if (!is_version(version)) return false;
  if (!min.empty() && compare_version_prefix(version, min) < 0) return false;
  if (!max.empty() && compare_version_prefix(version, max) > 0) return false;
  return true;
}

std::string Expectation::describe() const { return link.empty() ? reason : reason + " (" + link + ")"; }

std::string Expectation::ids() const {
  std::string text;
  for (const auto& glob : id_patterns) text += (text.empty() ? "" : ", ") + glob;
  return text;
}

bool entry_applies(const Expectation& e, const Environment& env, std::string* why) {
  auto no = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  if (e.driver && !e.driver->contains(env.driver))
    return no(env.driver.empty() ? "the driver's version is unknown" : str("driver ", env.driver, " is not in its range"));
  const std::string runtime = cuda_version_string(env.runtime_version);
  if (e.runtime && !e.runtime->contains(runtime)) return no(str("runtime ", runtime, " is not in its range"));
  for (const auto& [package, range] : e.layers) {
    const std::string* version = reported_version(env, package);
    if (!version) return no(str("no loaded layer reports ", package));
    if (!range.contains(*version)) return no(str(package, " ", *version, " is not in ", range.text()));
  }
  return true;
}

std::vector<std::string> shipped_expectations_candidates() {
  const std::string bin = binary_folder();
  if (bin.empty()) return {};
  std::vector<std::string> candidates;
  for (const char* under : {"/../" HOSTCB_INSTALL_DATADIR "/hostcb/", "/" HOSTCB_INSTALL_DATADIR "/hostcb/"})
    candidates.push_back(bin + under + "known-layer-bugs.jsonc");
  return candidates;
}

std::optional<std::string> find_shipped_expectations() {
  for (const auto& path : shipped_expectations_candidates()) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return path;
  }
  return std::nullopt;
}

std::string expectations_path(const std::string& name) {
  if (name != kShippedExpectations) return name;
  if (std::optional<std::string> found = find_shipped_expectations()) return *found;
  std::string looked;
  for (const auto& path : shipped_expectations_candidates()) looked += (looked.empty() ? "" : ", ") + path;
  throw UsageError(str("shipped expectations: no known-layer-bugs.jsonc beside this binary (looked at ",
                       looked.empty() ? "nothing: the binary's own path is unknown" : looked, "); give the file's path"));
}

ExpectationsChoice choose_expectations(const std::optional<std::string>& given, bool off, const char* variable) {
  if (off) return {"", "--no-expectations", false};
  if (given) return {expectations_path(*given), "--expectations", false};
  if (variable) {
    if (!*variable) return {"", str("$", kExpectationsVariable, " (set empty)"), false};
    return {expectations_path(variable), str("$", kExpectationsVariable), false};
  }
  if (std::optional<std::string> found = find_shipped_expectations()) return {*found, "the shipped default", true};
  return {"", "no shipped file found", false};
}

Expectations parse_expectations(const std::string& text, const std::string& path) {
  JsonLimits limits;
  limits.max_bytes = kMaxFileBytes;
  limits.max_depth = 16;  // root, list, entry, range: 4 are needed
  limits.comments = true;
  const Json doc = parse_json_input(text, path, limits);
  SourceMap map(text);
  auto key_at = [&](const std::string& key) {
    auto found = map.top_keys.find(key);
    return map.position(found == map.top_keys.end() ? 0 : found->second);
  };
  if (!doc.is_object()) fail_at(path, "1:1", "the file must hold one JSON object");
  if (!doc.contains("format") || doc.at("format") != "hostcb-expectations")
    fail_at(path, key_at("format"), "\"format\" must be \"hostcb-expectations\"");
  if (!doc.contains("format_version") || doc.at("format_version") != 1)
    fail_at(path, key_at("format_version"), "\"format_version\" must be 1");
  for (const auto& [key, value] : doc.items())
    if (key != "format" && key != "format_version" && key != "expectations")
      fail_at(path, key_at(key), str("unknown key \"", key, "\""));
  if (!doc.contains("expectations") || !doc.at("expectations").is_array())
    fail_at(path, key_at("expectations"), "\"expectations\" must be a list");
  Expectations result;
  result.path = path;
  const auto& entries = doc.at("expectations");
  for (std::size_t i = 0; i < entries.size(); ++i) result.entries.push_back(read_entry(entries[i], path, map, i));
  result.warnings = duplicate_warnings(result);
  index_entries(result);
  return result;
}

Expectations load_expectations(const std::string& path) {
  return parse_expectations(read_input_file(path, "expectations file", kMaxFileBytes), path);
}

std::vector<std::string> unmatched_expectation_warnings(const Expectations& expectations,
                                                        const std::vector<PlannedScenario>& planned,
                                                        const Environment& env) {
  std::unordered_map<std::string, std::vector<const PlannedScenario*>> by_id;
  for (const auto& s : planned) by_id[s.id].push_back(&s);
  // Each glob of each entry, by (entry, glob): an entry's list may hold a glob that names
  // nothing (a typo) beside others that do.
  std::set<std::pair<std::size_t, std::string>> matched;
  auto match = [&](const std::string& glob, const std::vector<std::size_t>& entries, const PlannedScenario& s) {
    for (std::size_t i : entries)
      if (!matched.count({i, glob}) && axes_hold(expectations.entries[i], s.params)) matched.insert({i, glob});
  };
  for (const auto& [id, entries] : expectations.exact_ids)
    if (auto found = by_id.find(id); found != by_id.end())
      for (const PlannedScenario* s : found->second) match(id, entries, *s);
  for (const auto& [glob, entries] : expectations.globs)  // each distinct glob once
    for (const auto& s : planned) {
      if (std::all_of(entries.begin(), entries.end(), [&, &glob = glob](std::size_t i) { return matched.count({i, glob}) > 0; }))
        break;
      if (glob_match(glob, s.id)) match(glob, entries, s);
    }
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < expectations.entries.size(); ++i) {
    const Expectation& e = expectations.entries[i];
    bool layers_reported = true;
    for (const auto& [package, range] : e.layers) layers_reported = layers_reported && reported_version(env, package);
    if (!layers_reported) continue;
    std::vector<std::string> dead;
    for (const auto& glob : e.id_patterns)
      if (!matched.count({i, glob})) dead.push_back(glob);
    const std::string where = e.axes.empty() ? "" : " at these axis values";
    if (dead.size() == e.id_patterns.size())
      warnings.push_back(str(expectations.path, ":", e.line, ": warning: \"", e.ids(), "\"", where,
                             " matches no scenario hostcb can run with these layers"));
    else
      for (const auto& glob : dead)
        warnings.push_back(str(expectations.path, ":", e.line, ": warning: \"", glob, "\", one of this entry's ids,", where,
                               " matches no scenario hostcb can run with these layers"));
  }
  return warnings;
}

namespace {
// "the entry keyed on X never applies", "the 3 entries keyed on X never apply"
std::string entries_never_apply(std::size_t n, const std::string& which) {
  return n == 1 ? str("the entry", which, " never applies") : str("the ", n, " entries", which, " never apply");
}
}  // namespace

std::vector<std::string> unplaced_version_warnings(const Expectations& expectations, const Environment& env) {
  std::vector<std::string> warnings;
  std::set<std::string> warned;
  for (const auto& e : expectations.entries)
    for (const auto& [package, range] : e.layers) {
      const std::string* version = reported_version(env, package);
      if (!version || Version::parse(*version) || !warned.insert(package).second) continue;
      std::size_t keyed = 0;
      for (const auto& other : expectations.entries)
        for (const auto& keyed_on : other.layers) keyed += keyed_on.first == package;
      warnings.push_back(str(expectations.path, ":", e.line, ": warning: a loaded layer reports ", package, " \"", *version,
                             "\", which is no PEP 440 version: no range holds it, so ", entries_never_apply(keyed,
                             " keyed on " + package)));
    }
  return warnings;
}

std::vector<std::string> driver_version_warnings(const Expectations& expectations, const Environment& env) {
  if (env.driver.empty() || is_version(env.driver)) return {};
  std::size_t keyed = 0;
  const Expectation* first = nullptr;
  for (const auto& e : expectations.entries)
    if (e.driver) {
      ++keyed;
      if (!first) first = &e;
    }
  if (!first) return {};
  return {str(expectations.path, ":", first->line, ": warning: the driver's version string \"", env.driver,
              "\" is no dotted numbers: no driver range holds it, so ", entries_never_apply(keyed, " with a driver range"))};
}

bool layers_may_apply(const Expectations& expectations, const std::vector<AdapterInfo>& adapters) {
  Environment env;
  env.adapters = adapters;
  return std::any_of(expectations.entries.begin(), expectations.entries.end(), [&](const Expectation& e) {
    return std::all_of(e.layers.begin(), e.layers.end(), [&](const auto& layer) { return reported_version(env, layer.first); });
  });
}

void check_axes(const Expectations& expectations, const std::vector<PlannedScenario>& planned) {
  std::set<std::string> names;
  for (const auto& s : planned)
    for (const auto& [axis, value] : s.params.items()) names.insert(axis);
  const std::vector<std::string> known(names.begin(), names.end());
  for (const auto& e : expectations.entries)
    for (const auto& [axis, range] : e.axes) {
      if (names.count(axis)) continue;
      std::string hint = closest_match(axis, known);
      throw UsageError(str(expectations.path, ":", e.line, ": unknown axis \"", axis, "\"",
                           hint.empty() ? "" : str("; did you mean \"", hint, "\"?"),
                           " (known: the axes of the scenarios hostcb can run with these layers)"));
    }
}

Expectations load_checked_expectations(const std::string& path, const Registry& registry,
                                       const std::vector<std::string>& axes, std::vector<std::string>& warnings) {
  Environment layers;  // the loaded layers: what an entry's "layers" is checked against
  layers.adapters = loaded_adapters();
  // Every scenario at the default axis values, and at the command's (--axis copy=1-3 makes
  // copies the defaults lack, which an entry may be about).
  SelectionOptions everything;
  everything.controls = true;
  std::vector<PlannedScenario> planned;
  std::set<std::string> seen;
  for (int at_commands = 0; at_commands <= (axes.empty() ? 0 : 1); ++at_commands) {
    if (at_commands) everything.axes = axes;
    for (auto& s : make_plan(registry, everything))
      if (seen.insert(s.id).second) planned.emplace_back(std::move(s.id), std::move(s.params));
  }
  Expectations expectations = load_expectations(path);
  check_layer_packages(expectations, layers);
  check_axes(expectations, planned);
  for (const auto& more : {expectations.warnings, unmatched_expectation_warnings(expectations, planned, layers),
                           unplaced_version_warnings(expectations, layers)})
    warnings.insert(warnings.end(), more.begin(), more.end());
  return expectations;
}

const Expectation* find_expectation(const Expectations& expectations, const std::string& id, const Params& params,
                                    const Environment& env) {
  std::size_t first = expectations.entries.size();  // the first entry that applies, in file order
  auto consider = [&](const std::vector<std::size_t>& entries) {
    for (std::size_t i : entries) {
      if (i >= first) return;
      const Expectation& e = expectations.entries[i];
      if (!axes_hold(e, params) || !entry_applies(e, env)) continue;
      first = i;
      return;
    }
  };
  if (auto exact = expectations.exact_ids.find(id); exact != expectations.exact_ids.end()) consider(exact->second);
  for (const auto& [glob, entries] : expectations.globs)
    if (entries.front() < first && glob_match(glob, id)) consider(entries);
  return first < expectations.entries.size() ? &expectations.entries[first] : nullptr;
}

void apply_expectation(Result& r, const Expectations& expectations, const Environment& env) {
  if (r.status != Status::passed && r.status != Status::failed && r.status != Status::error) return;
  const Expectation* e = find_expectation(expectations, r.id, r.params, env);
  if (!e) return;
  bool expected = false;
  for (Status s : e->expect) expected = expected || s == r.status;
  if (r.status == Status::passed) {
    r.status = Status::xpass;
  } else if (expected) {
    r.properties.emplace_back("result_before_expectations", status_name(r.status));
    r.status = Status::xfail;
  } else {
    return;  // failed in another way than the one listed: it stays a failure or error
  }
  r.expectation = e->describe();
  r.properties.emplace_back("expectation_line", str(expectations.path, ":", e->line));
}

}  // namespace hostcb
