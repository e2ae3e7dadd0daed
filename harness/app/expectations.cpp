#include "app/expectations.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <unordered_set>

#include "model/errors.hpp"
#include "model/filter.hpp"
#include "model/json_input.hpp"
#include "model/suggest.hpp"
#include "reports/input_file.hpp"

namespace hostcb {

namespace {

using Json = nlohmann::ordered_json;
constexpr std::size_t kMaxPartDigits = 9;  // each number of a version fits a long, always
constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;

// Saturates instead of throwing: a driver string from the system is not checked by is_version.
std::vector<long> version_numbers(const std::string& text) {
  std::vector<long> numbers{0};
  for (char c : text) {
    if (c == '.') {
      numbers.push_back(0);
    } else if (c >= '0' && c <= '9') {
      long& n = numbers.back();
      n = n >= 100000000000L ? n : n * 10 + (c - '0');
    }
  }
  return numbers;
}

bool is_version(const std::string& text) {
  if (text.empty() || text.front() == '.' || text.back() == '.') return false;
  if (text.find_first_not_of("0123456789.") != std::string::npos || text.find("..") != std::string::npos) return false;
  std::size_t run = 0;
  for (char c : text) {
    run = c == '.' ? 0 : run + 1;
    if (run > kMaxPartDigits) return false;
  }
  return true;
}

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
    std::size_t counted = 0;  // newlines before `counted` are in `line`
    auto line_at = [&](std::size_t offset) {
      line += static_cast<int>(std::count(text.begin() + counted, text.begin() + offset, '\n'));
      counted = offset;
      return line;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (c == '"') {
        std::size_t open = i;
        for (++i; i < text.size() && text[i] != '"'; ++i)
          if (text[i] == '\\') ++i;
        if (depth == 1) top_keys.emplace(text.substr(open + 1, i - open - 1), open);  // a key or value: both point here
      } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
        i = text.find('\n', i);
        if (i == std::string::npos) break;
      } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
        i = text.find("*/", i + 2);
        if (i == std::string::npos) break;
        ++i;
      } else if (c == '{' || c == '[') {
        if (c == '{' && depth == 2) {
          entry_starts.push_back(i);
          entry_lines.push_back(line_at(i));
        }
        ++depth;
      } else if (c == '}' || c == ']') {
        --depth;
      }
    }
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

std::vector<std::pair<std::string, VersionSpecifier>> read_layers(const Json& entry, const std::string& path,
                                                                   const SourceMap& map, std::size_t index) {
  std::vector<std::pair<std::string, VersionSpecifier>> layers;
  if (!entry.contains("layers")) return layers;
  const auto& j = entry.at("layers");
  if (!j.is_object() || j.empty())
    fail_at(path, map.where(index, "layers"), "\"layers\" must be an object of package names and version ranges");
  for (const auto& [package, range] : j.items()) {
    if (!range.is_string())
      fail_at(path, map.where(index, "layers"), str("\"layers.", package, "\" must be a version range like \">=13.0,<13.5\""));
    try {
      layers.emplace_back(package, VersionSpecifier::parse(range.get<std::string>()));
    } catch (const std::invalid_argument& e) {
      fail_at(path, map.where(index, "layers"), str("\"layers.", package, "\": ", e.what()));
    }
  }
  return layers;
}

Expectation read_entry(const Json& entry, const std::string& path, const SourceMap& map, std::size_t index) {
  static const std::set<std::string> known = {"id", "driver", "runtime", "layers", "expect", "reason", "link"};
  if (!entry.is_object()) fail_at(path, map.where(index), "each expectation must be an object");
  for (const auto& [key, value] : entry.items())
    if (!known.count(key))
      fail_at(path, map.where(index, key), str("unknown key \"", key, "\" (known: id, driver, runtime, layers, expect, reason, link)"));
  Expectation e;
  e.line = map.line_of(index);
  for (const char* key : {"id", "reason", "link"}) {
    if (!entry.contains(key) || !entry.at(key).is_string() || entry.at(key).get<std::string>().empty())
      fail_at(path, map.where(index, key), str("\"", key, "\" must be a non-empty string"));
  }
  e.id_pattern = entry.at("id").get<std::string>();
  e.reason = entry.at("reason").get<std::string>();
  e.link = entry.at("link").get<std::string>();
  e.driver = read_range(entry, "driver", path, map, index);
  e.runtime = read_range(entry, "runtime", path, map, index);
  e.layers = read_layers(entry, path, map, index);
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

// An entry with the id and ranges of an earlier one never applies: the first one wins.
// Keyed by id and both ranges, so 150,000 entries for one id cost a map, not their square.
std::vector<std::string> duplicate_warnings(const Expectations& expectations) {
  auto range_key = [](const std::optional<VersionRange>& r) { return r ? "[" + r->min + "," + r->max + "]" : std::string("-"); };
  std::vector<std::string> warnings;
  std::map<std::string, const Expectation*> first_with;
  for (const auto& e : expectations.entries) {
    std::string layers;  // entries for other layer versions are no duplicates
    for (const auto& [package, range] : e.layers) layers += package + "=" + range.text() + ";";
    // The id last: it may hold any character, the ranges only digits and dots.
    auto [it, fresh] =
        first_with.emplace(range_key(e.driver) + " " + range_key(e.runtime) + " " + layers + " " + e.id_pattern, &e);
    if (!fresh)
      warnings.push_back(str(expectations.path, ":", e.line, ": warning: the same id and versions as the entry at line ",
                             it->second->line, ": this one never applies"));
  }
  return warnings;
}

bool is_literal(const std::string& glob) { return glob.find_first_of("*?") == std::string::npos; }

// The entries by glob, in file order, so that a lookup costs one match per distinct
// glob with a wildcard, and one hash lookup for all the exact ids.
void index_entries(Expectations& expectations) {
  std::map<std::string, std::size_t> glob_slot;
  for (std::size_t i = 0; i < expectations.entries.size(); ++i) {
    const std::string& glob = expectations.entries[i].id_pattern;
    if (is_literal(glob)) {
      expectations.exact_ids[glob].push_back(i);
      continue;
    }
    auto [it, fresh] = glob_slot.emplace(glob, expectations.globs.size());
    if (fresh) expectations.globs.push_back({glob, {}});
    expectations.globs[it->second].second.push_back(i);
  }
}

// The version of `package` that a loaded layer reports, in load order; nullptr when none does.
const std::string* reported_version(const Environment& env, const std::string& package) {
  for (const auto& adapter : env.adapters)
    for (const auto& [name, version] : adapter.versions)
      if (name == package) return &version;
  return nullptr;
}

bool layers_hold(const Expectation& e, const Environment& env) {
  for (const auto& [package, range] : e.layers) {
    const std::string* version = reported_version(env, package);
    if (!version || !range.contains(*version)) return false;
  }
  return true;
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
  std::vector<long> v = version_numbers(version), b = version_numbers(bound);
  for (std::size_t i = 0; i < b.size(); ++i) {
    long part = i < v.size() ? v[i] : 0;
    if (part != b[i]) return part < b[i] ? -1 : 1;
  }
  return 0;
}

bool VersionRange::contains(const std::string& version) const {
  if (!is_version(version)) return false;
  if (!min.empty() && compare_version_prefix(version, min) < 0) return false;
  if (!max.empty() && compare_version_prefix(version, max) > 0) return false;
  return true;
}

std::string Expectation::describe() const { return reason + " (" + link + ")"; }

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
                                                        const std::vector<std::string>& planned_ids,
                                                        const Environment& env) {
  const std::unordered_set<std::string> ids(planned_ids.begin(), planned_ids.end());
  std::vector<bool> matched(expectations.entries.size(), false);
  for (const auto& [id, entries] : expectations.exact_ids)
    if (ids.count(id))
      for (std::size_t i : entries) matched[i] = true;
  for (const auto& [glob, entries] : expectations.globs)  // each distinct glob once
    if (std::any_of(planned_ids.begin(), planned_ids.end(), [&](const std::string& id) { return glob_match(glob, id); }))
      for (std::size_t i : entries) matched[i] = true;
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < expectations.entries.size(); ++i) {
    const Expectation& e = expectations.entries[i];
    if (!matched[i] && layers_hold(e, env))
      warnings.push_back(str(expectations.path, ":", e.line, ": warning: \"", e.id_pattern,
                             "\" matches no scenario hostcb can run with these layers"));
  }
  return warnings;
}

const Expectation* find_expectation(const Expectations& expectations, const std::string& id, const Environment& env) {
  const std::string runtime = cuda_version_string(env.runtime_version);
  std::size_t first = expectations.entries.size();  // the first entry that applies, in file order
  auto consider = [&](const std::vector<std::size_t>& entries) {
    for (std::size_t i : entries) {
      if (i >= first) return;
      const Expectation& e = expectations.entries[i];
      if (e.driver && !e.driver->contains(env.driver)) continue;
      if (e.runtime && !e.runtime->contains(runtime)) continue;
      if (!layers_hold(e, env)) continue;
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
  const Expectation* e = find_expectation(expectations, r.id, env);
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
