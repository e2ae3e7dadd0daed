#include "matrix/matrix.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "model/environment.hpp"
#include "model/errors.hpp"
#include "model/json_input.hpp"
#include "reports/results_file.hpp"
#include "model/result.hpp"
#include "model/result_json.hpp"

namespace hostcb {

namespace {

// A cell's one line: what ended an error (its reason: a layer's exception, a crash), else the
// first failure, else the reason. An error's failures follow from it ("host function #0 was
// called 0 times" after the layer raised before enqueuing it): its reason says why.
std::string headline(const Result& r) {
  std::string text;
  if (!r.expectation.empty()) text = r.expectation + "; ";
  if (!r.failures.empty() && (r.status != Status::error || r.reason.empty()))
    text += describe_failure(r.failures.front());
  else
    text += r.reason;
  return first_line(text);
}

// One cell from every result the file has for it (the --repeat passes): the worst one,
// and, when there were several, how many of each ("pass 3 of 4; 1 failed, 3 passed").
MatrixCell merged_cell(const std::vector<const Result*>& results) {
  std::vector<Status> statuses;
  for (const Result* r : results) statuses.push_back(r->status);
  const Status worst = worst_status(statuses);
  const Result* shown = *std::find_if(results.begin(), results.end(), [&](const Result* r) { return r->status == worst; });
  if (results.size() == 1) return {worst, headline(*shown)};
  std::string counts;
  for (Status s : {Status::error, Status::failed, Status::xpass, Status::passed, Status::xfail, Status::skipped}) {
    const auto n = std::count(statuses.begin(), statuses.end(), s);
    if (n) counts += str(counts.empty() ? "" : ", ", n, " ", status_name(s));
  }
  const std::string which = shown->iteration > 0 ? str("pass ", shown->iteration, " of ", results.size())
                                                 : str("1 of ", results.size(), " results");
  return {worst, str(headline(*shown), " (", which, "; ", counts, ")")};
}

// A column without layers keeps the key it had before layers were keyed, so last night's
// matrix still matches it.
std::string column_key(const MatrixColumn& c) {
  std::string key = c.host + "|" + c.gpu + "|" + c.device + "|" + c.runtime;
  for (const auto& layer : c.layers) {
    key += "|" + layer.name + " ";
    if (layer.versions.empty()) key += "describe=" + layer.describe;  // format 1 and 2: all there is
    for (std::size_t i = 0; i < layer.versions.size(); ++i)
      key += str(i ? "," : "", layer.versions[i].first, "=", layer.versions[i].second);
  }
  return key;
}

// "Python 3.12.3 (/venv/bin/python3); cuda-bindings 13.3.1; via x" -> "Python 3.12.3;
// cuda-bindings 13.3.1; via x", cut to a label's length: parentheses hold paths and asides.
std::string short_describe(const std::string& describe) {
  constexpr std::size_t kMax = 48;
  std::string text;
  int depth = 0;
  for (char c : first_line(describe)) {
    if (c == '(') ++depth;
    if (depth == 0 && !(c == ' ' && (text.empty() || text.back() == ' '))) text += c;
    if (c == ')' && depth > 0) --depth;
  }
  for (std::size_t at; (at = text.find(" ;")) != std::string::npos;) text.erase(at, 1);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  if (text.size() > kMax) {
    std::size_t cut = kMax - 3;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    text = text.substr(0, cut) + "...";
  }
  return text.empty() ? "?" : text;
}

std::size_t column_for(Matrix& matrix, MatrixColumn column) {
  column.key = column_key(column);
  std::string base = column.key;
  for (int n = 2;; ++n) {  // the same machine twice in one night: keep both, apart
    bool taken = false;
    for (const auto& c : matrix.columns) taken = taken || c.key == column.key;
    if (!taken) break;
    column.key = str(base, "#", n);
  }
  column.label = str(column.driver.empty() ? "driver ?" : column.driver, " · CUDA ", column.runtime, " · ", column.gpu,
                     " · ", column.host);
  if (column.device != "0") column.label += " · device " + column.device;
  if (!column.layers.empty()) column.label += " · " + layers_label(column.layers);
  matrix.columns.push_back(column);
  return matrix.columns.size() - 1;
}

// The loaded layers as the environment lists them; format 3 adds each one's versions.
std::vector<MatrixLayer> layers_from_json(const nlohmann::ordered_json& env) {
  std::vector<MatrixLayer> layers;
  if (!env.contains("adapters")) return layers;
  for (const auto& a : env.at("adapters")) {
    MatrixLayer layer;
    layer.name = a.at("name").get<std::string>();
    layer.describe = a.value("describe", "");
    if (a.contains("versions"))
      for (const auto& [package, version] : a.at("versions").items())
        layer.versions.emplace_back(package, version.get<std::string>());
    layers.push_back(std::move(layer));
  }
  return layers;
}

}  // namespace

std::string layers_label(const std::vector<MatrixLayer>& layers) {
  std::string label;
  for (const auto& layer : layers) {
    label += label.empty() ? "" : " · ";
    if (layer.versions.empty()) label += layer.name + ": " + short_describe(layer.describe);
    for (std::size_t i = 0; i < layer.versions.size(); ++i)
      label += str(i ? ", " : "", layer.versions[i].first, " ", layer.versions[i].second);
  }
  return label;
}

const MatrixCell* Matrix::cell(const std::string& id, std::size_t column) const {
  auto row = cells.find(id);
  if (row == cells.end()) return nullptr;
  auto it = row->second.find(column);
  return it == row->second.end() ? nullptr : &it->second;
}

bool Matrix::differs(const std::string& id) const {
  auto row = cells.find(id);
  if (row == cells.end() || row->second.empty()) return false;
  const Status first = row->second.begin()->second.status;
  for (const auto& [column, c] : row->second)
    if (c.status != first) return true;
  return false;
}

std::vector<std::string> Matrix::differing() const {
  std::vector<std::string> ids;
  for (const auto& id : scenarios)
    if (differs(id)) ids.push_back(id);
  return ids;
}

void add_results_file(Matrix& matrix, const std::string& path) {
  const ResultsFile file = read_results_file(path);
  const nlohmann::ordered_json& doc = file.doc;
  try {
    const auto& env = doc.at("environment");
    MatrixColumn base;
    base.driver = env.value("driver", "");
    base.cuda_by_driver = cuda_version_string(env.value("driver_version", 0));
    base.runtime = cuda_version_string(env.value("runtime_version", 0));
    base.host = env.value("hostname", "?");
    base.source = path;
    base.started = doc.value("started", "");
    base.git_revision = env.value("git_revision", "");
    base.layers = layers_from_json(env);
    if (env.value("require_gpu", false) && !env.value("gpu_usable", true))
      base.unmet = "--require-gpu, but " + env.value("gpu_unusable_reason", std::string("no usable GPU"));
    std::vector<std::string> gpus;
    for (const auto& d : env.at("devices")) gpus.push_back(d.value("name", "?"));
    const auto& selected = env.at("selected_device");
    // A number is one device (read_results_file checked its range); anything else (null,
    // "all") means each result names its own.
    int default_device = selected.is_number() ? selected.get<int>() : 0;
    if (default_device == kAllDevices) default_device = 0;

    std::map<int, std::size_t> column_of_device;
    std::map<std::pair<std::string, std::size_t>, std::vector<const Result*>> passes;  // a cell's results
    for (const Result& r : file.results) {
      int device = r.device >= 0 ? r.device : default_device;
      auto found = column_of_device.find(device);
      if (found == column_of_device.end()) {
        MatrixColumn column = base;
        column.device = std::to_string(device);
        column.gpu = device < static_cast<int>(gpus.size()) ? gpus[device] : "no GPU";
        found = column_of_device.emplace(device, column_for(matrix, column)).first;
      }
      if (!matrix.cells.count(r.id)) matrix.scenarios.push_back(r.id);
      auto& cell_results = passes[{r.id, found->second}];
      cell_results.push_back(&r);
      matrix.cells[r.id][found->second] = merged_cell(cell_results);
    }
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(str(path, ": not a hostcb results file: ", e.what()));
  } catch (const std::invalid_argument& e) {
    throw UsageError(str(path, ": ", e.what()));
  }
}

std::vector<MatrixChange> changes_since(const Matrix& previous, const Matrix& now) {
  std::vector<MatrixChange> changes;
  for (std::size_t c = 0; c < now.columns.size(); ++c) {
    std::size_t before_column = previous.columns.size();
    for (std::size_t p = 0; p < previous.columns.size(); ++p)
      if (previous.columns[p].key == now.columns[c].key) before_column = p;
    if (before_column == previous.columns.size()) continue;  // a new environment: nothing to compare
    for (const auto& id : now.scenarios) {
      const MatrixCell* after = now.cell(id, c);
      const MatrixCell* before = previous.cell(id, before_column);
      if (after && before && after->status != before->status)
        changes.push_back({id, c, before->status, after->status, after->message});
    }
  }
  return changes;
}

namespace {
nlohmann::ordered_json layers_json(const std::vector<MatrixLayer>& layers) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& layer : layers) {
    nlohmann::ordered_json versions = nlohmann::ordered_json::object();
    for (const auto& [package, version] : layer.versions) versions[package] = version;
    out.push_back({{"name", layer.name}, {"describe", layer.describe}, {"versions", versions}});
  }
  return out;
}
}  // namespace

std::string matrix_json(const Matrix& matrix) {
  nlohmann::ordered_json columns = nlohmann::ordered_json::array();
  for (const auto& c : matrix.columns)
    columns.push_back({{"key", c.key}, {"label", c.label}, {"driver", c.driver}, {"cuda_by_driver", c.cuda_by_driver},
                       {"runtime", c.runtime}, {"gpu", c.gpu}, {"host", c.host}, {"device", c.device},
                       {"source", c.source}, {"started", c.started}, {"git_revision", c.git_revision},
                       {"layers", layers_json(c.layers)}});
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& id : matrix.scenarios) {
    nlohmann::ordered_json cells = nlohmann::ordered_json::object();
    for (const auto& [column, cell] : matrix.cells.at(id))
      cells[matrix.columns[column].key] = {{"status", status_name(cell.status)}, {"message", cell.message}};
    rows.push_back({{"id", id}, {"cells", cells}});
  }
  nlohmann::ordered_json doc = {{"format", "hostcb-matrix"}, {"format_version", 1}, {"columns", columns}, {"scenarios", rows}};
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

Matrix load_matrix_json(const std::string& path) {
  nlohmann::ordered_json doc =
      read_hostcb_document(path, "hostcb-matrix", {1}, "hostcb matrix (give the JSON `hostcb report` wrote)");
  Matrix matrix;
  try {
    std::map<std::string, std::size_t> index;
    for (const auto& c : doc.at("columns")) {
      MatrixColumn column;
      column.key = c.at("key").get<std::string>();
      column.label = c.value("label", column.key);
      index[column.key] = matrix.columns.size();
      matrix.columns.push_back(column);
    }
    for (const auto& row : doc.at("scenarios")) {
      std::string id = row.at("id").get<std::string>();
      matrix.scenarios.push_back(id);
      for (const auto& [key, cell] : row.at("cells").items())
        matrix.cells[id][index.at(key)] = {status_from_name(cell.at("status").get<std::string>()),
                                           cell.value("message", "")};
    }
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& e) {
    throw UsageError(str(path, ": not a hostcb matrix: ", e.what()));
  }
  return matrix;
}

}  // namespace hostcb
