#include "app/expectations.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "model/errors.hpp"
#include "model/filter.hpp"

namespace hostcb {

namespace {

std::vector<long> version_numbers(const std::string& text) {
  std::vector<long> numbers;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, '.')) numbers.push_back(part.empty() ? 0 : std::stol(part));
  return numbers;
}

bool is_version(const std::string& text) {
  if (text.empty() || text.front() == '.' || text.back() == '.') return false;
  return text.find_first_not_of("0123456789.") == std::string::npos && text.find("..") == std::string::npos;
}

// Where things are in the file, for messages: the start of every entry (an object two
// levels down: root object, "expectations" array, entry), skipping strings and comments.
struct SourceMap {
  const std::string& text;
  std::vector<std::size_t> entry_starts;

  explicit SourceMap(const std::string& source) : text(source) {
    int depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (c == '"') {
        for (++i; i < text.size() && text[i] != '"'; ++i)
          if (text[i] == '\\') ++i;
      } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
        i = text.find('\n', i);
        if (i == std::string::npos) break;
      } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
        i = text.find("*/", i + 2);
        if (i == std::string::npos) break;
        ++i;
      } else if (c == '{' || c == '[') {
        if (c == '{' && depth == 2) entry_starts.push_back(i);
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
  std::string position(std::size_t offset) const {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return str(line, ":", column);
  }
  int line_of(std::size_t index) const {
    if (index >= entry_starts.size()) return 1;
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + entry_starts[index], '\n'));
  }
};

[[noreturn]] void fail_at(const std::string& path, const std::string& where, const std::string& what) {
  throw UsageError(str(path, ":", where, ": ", what));
}

std::optional<VersionRange> read_range(const nlohmann::json& entry, const char* key, const std::string& path,
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
  return range;
}

Expectation read_entry(const nlohmann::json& entry, const std::string& path, const SourceMap& map, std::size_t index) {
  static const std::set<std::string> known = {"id", "driver", "runtime", "expect", "reason", "link"};
  if (!entry.is_object()) fail_at(path, map.where(index), "each expectation must be an object");
  for (const auto& [key, value] : entry.items())
    if (!known.count(key))
      fail_at(path, map.where(index, key), str("unknown key \"", key, "\" (known: id, driver, runtime, expect, reason, link)"));
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
  const auto expect = entry.contains("expect") ? entry.at("expect") : nlohmann::json();
  if (!expect.is_array() || expect.empty())
    fail_at(path, map.where(index, "expect"), "\"expect\" must be a list of results: \"failed\", \"error\"");
  for (const auto& value : expect) {
    std::string name = value.is_string() ? value.get<std::string>() : value.dump();
    if (name == "failed")
      e.expect.push_back(Status::failed);
    else if (name == "error")
      e.expect.push_back(Status::error);
    else
      fail_at(path, map.where(index, "expect"), str("\"expect\" lists \"", name, "\"; known results: failed, error"));
  }
  return e;
}

}  // namespace

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
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text, nullptr, true, /*ignore_comments=*/true);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's message reads "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    std::string what = e.what();
    std::size_t at = what.find("line ");
    std::string where = "1:1", detail = what;
    if (at != std::string::npos) {
      int line = 0, column = 0;
      if (std::sscanf(what.c_str() + at, "line %d, column %d", &line, &column) == 2) where = str(line, ":", column);
      std::size_t colon = what.find(": ", at);
      if (colon != std::string::npos) detail = what.substr(colon + 2);
    }
    fail_at(path, where, "not valid JSON: " + detail);
  }
  SourceMap map(text);
  if (!doc.is_object()) fail_at(path, "1:1", "the file must hold one JSON object");
  if (doc.value("format", "") != "hostcb-expectations")
    fail_at(path, map.position(text.find("\"format\"") == std::string::npos ? 0 : text.find("\"format\"")),
            "\"format\" must be \"hostcb-expectations\"");
  if (!doc.contains("format_version") || doc.at("format_version") != 1)
    fail_at(path, map.position(text.find("\"format_version\"") == std::string::npos ? 0 : text.find("\"format_version\"")),
            "\"format_version\" must be 1");
  for (const auto& [key, value] : doc.items())
    if (key != "format" && key != "format_version" && key != "expectations")
      fail_at(path, map.position(text.find('"' + key + '"')), str("unknown key \"", key, "\""));
  if (!doc.contains("expectations") || !doc.at("expectations").is_array())
    fail_at(path, "1:1", "\"expectations\" must be a list");
  Expectations result;
  result.path = path;
  const auto& entries = doc.at("expectations");
  for (std::size_t i = 0; i < entries.size(); ++i) result.entries.push_back(read_entry(entries[i], path, map, i));
  return result;
}

Expectations load_expectations(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw UsageError(str(path, ": cannot read the expectations file"));
  std::stringstream text;
  text << file.rdbuf();
  return parse_expectations(text.str(), path);
}

const Expectation* find_expectation(const Expectations& expectations, const std::string& id, const Environment& env) {
  for (const auto& e : expectations.entries) {
    if (!glob_match(e.id_pattern, id)) continue;
    if (e.driver && !e.driver->contains(env.driver)) continue;
    if (e.runtime && !e.runtime->contains(cuda_version_string(env.runtime_version))) continue;
    return &e;
  }
  return nullptr;
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

void apply_expectations(std::vector<Result>& results, const Expectations& expectations, const Environment& env) {
  for (auto& r : results) apply_expectation(r, expectations, env);
}

}  // namespace hostcb
