#include "reports/results_file.hpp"

#include <algorithm>

#include "model/environment.hpp"
#include "model/errors.hpp"
#include "model/json_input.hpp"
#include "model/result_json.hpp"
#include "reports/input_file.hpp"

namespace hostcb {

namespace {

constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

nlohmann::ordered_json read_json(const std::string& path, const char* what) {
  JsonLimits limits;
  limits.max_bytes = kMaxInputBytes;
  std::string text = read_input_file(path, what, kMaxInputBytes);
  try {
    return parse_json_input(text, path, limits);
  } catch (const UsageError& e) {  // "PATH:LINE:COLUMN: why", or "PATH: why"
    std::string why = std::string(e.what()).substr(path.size());
    why.erase(0, why.find_first_not_of(": "));
    throw UsageError(str(path, ": not a ", what, " (", why, ")"));
  }
}

// The format and a version this build reads, before anything else is looked at.
void check_format(const nlohmann::ordered_json& doc, const std::string& path, const char* format,
                  std::initializer_list<int> versions, const char* what) {
  if (!doc.is_object() || !doc.contains("format") || doc.at("format") != format)
    throw UsageError(str(path, ": not a ", what, " (\"format\" is not \"", format, "\")"));
  std::string known;  // "1", "1 or 2", "1, 2 or 3"
  bool ok = false;
  std::size_t i = 0;
  for (int v : versions) {
    known += str(i == 0 ? "" : i + 1 == versions.size() ? " or " : ", ", v);
    ++i;
    ok = ok || (doc.contains("format_version") && doc.at("format_version").is_number_integer() &&
                doc.at("format_version") == v);
  }
  if (!ok)
    throw UsageError(str(path, ": ", what, " format_version ",
                         doc.contains("format_version") ? doc.at("format_version").dump().substr(0, 40) : "missing",
                         "; this hostcb reads ", known));
}

int severity(Status s) {
  switch (s) {
    case Status::error: return 5;
    case Status::failed: return 4;
    case Status::xpass: return 3;
    case Status::passed: return 2;
    case Status::xfail: return 1;
    case Status::skipped: return 0;
  }
  return 0;
}

}  // namespace

nlohmann::ordered_json read_hostcb_document(const std::string& path, const char* format,
                                            std::initializer_list<int> versions, const char* what) {
  nlohmann::ordered_json doc = read_json(path, what);
  check_format(doc, path, format, versions, what);
  return doc;
}

ResultsFile read_results_file(const std::string& path) {
  ResultsFile file{read_hostcb_document(path, "hostcb-results", {1, 2, 3}, "hostcb results file"), {}};
  if (!file.doc.contains("results") || !file.doc.at("results").is_array())
    throw UsageError(str(path, ": not a hostcb results file (\"results\" is not a list)"));
  // What `report` reads of the environment, refused here for `result` too: one reader.
  const auto& doc = file.doc;
  if (!doc.contains("environment") || !doc.at("environment").is_object() || !doc.at("environment").contains("devices") ||
      !doc.at("environment").at("devices").is_array() || !doc.at("environment").contains("selected_device"))
    throw UsageError(str(path, ": not a hostcb results file (no \"environment\" with \"devices\" and \"selected_device\")"));
  try {
    // A number is the run's one device; anything else (null, "all") means each result names
    // its own. `result` and `report` read it here, the same way.
    const auto& selected = doc.at("environment").at("selected_device");
    if (selected.is_number()) json_integer(selected, kAllDevices, kMaxDevices - 1, "\"selected_device\"");
    for (const auto& entry : file.doc.at("results")) {
      file.results.push_back(result_from_json(entry));
      if (file.results.back().device >= kMaxDevices)
        throw std::invalid_argument(str("result ", file.results.back().id, ": device ", file.results.back().device));
    }
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(str(path, ": not a hostcb results file: ", e.what()));
  } catch (const std::invalid_argument& e) {
    throw UsageError(str(path, ": ", e.what()));
  }
  return file;
}

Status worst_status(const std::vector<Status>& statuses) {
  Status worst = Status::skipped;
  for (Status s : statuses)
    if (severity(s) > severity(worst)) worst = s;
  return worst;
}

}  // namespace hostcb
