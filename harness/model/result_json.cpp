#include "model/result_json.hpp"

#include <limits>
#include <stdexcept>

#include "model/json_input.hpp"

namespace hostcb {

nlohmann::ordered_json result_to_json(const Result& r) {
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [axis, value] : r.params.items()) params[axis] = value;
  nlohmann::ordered_json failures = nlohmann::ordered_json::array();
  for (const auto& f : r.failures)
    failures.push_back({{"launch", f.launch},
                        {"thread", f.thread},
                        {"file", f.file},
                        {"line", f.line},
                        {"message", f.message}});
  nlohmann::ordered_json properties = nlohmann::ordered_json::object();
  for (const auto& [name, value] : r.properties) properties[name] = value;
  nlohmann::ordered_json j = {{"id", r.id},
          {"family", r.family},
          {"params", params},
          {"status", status_name(r.status)},
          {"reason", r.reason},
          {"seconds", r.seconds},
          {"failures", failures},
          {"failures_dropped", r.failures_dropped},
          {"properties", properties},
          {"device", r.device < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.device)},
          {"expectation", r.expectation}};
  if (r.iteration > 0) j["iteration"] = r.iteration;  // only with --repeat: older readers never see it
  return j;
}

Status status_from_name(const std::string& name) {
  if (std::optional<Status> status = kStatuses.find(name)) return *status;
  throw std::invalid_argument("unknown status '" + name + "'");
}

namespace {
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
}  // namespace

Result result_from_json(const nlohmann::ordered_json& j) {
  Result r;
  r.id = j.at("id").get<std::string>();
  r.family = j.at("family").get<std::string>();
  for (const auto& [axis, value] : j.at("params").items()) r.params.add(axis, value.get<std::string>());
  r.status = status_from_name(j.at("status").get<std::string>());
  r.reason = j.at("reason").get<std::string>();
  r.seconds = j.at("seconds").get<double>();
  for (const auto& f : j.at("failures"))
    r.failures.push_back({r.id, json_integer(f.at("launch"), -1, kInt64Max, "\"launch\""), f.at("thread").get<std::string>(),
                          f.at("file").get<std::string>(), static_cast<int>(json_integer(f.at("line"), 0, kIntMax, "\"line\"")),
                          f.at("message").get<std::string>()});
  r.failures_dropped = static_cast<std::uint64_t>(json_integer(j.at("failures_dropped"), 0, kInt64Max, "\"failures_dropped\""));
  for (const auto& [name, value] : j.at("properties").items()) r.properties.emplace_back(name, value.get<std::string>());
  if (j.contains("device") && !j.at("device").is_null())
    r.device = static_cast<int>(json_integer(j.at("device"), 0, kIntMax, "\"device\""));
  if (j.contains("expectation")) r.expectation = j.at("expectation").get<std::string>();
  if (j.contains("iteration")) r.iteration = static_cast<int>(json_integer(j.at("iteration"), 1, kIntMax, "\"iteration\""));
  return r;
}

}  // namespace hostcb
