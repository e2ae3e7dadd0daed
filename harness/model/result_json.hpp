// A Result as JSON and back: the worker streams results this way, and the JSON report
// holds them in the same shape.
#pragma once
#include <nlohmann/json.hpp>

#include "model/result.hpp"

namespace hostcb {

nlohmann::ordered_json result_to_json(const Result& result);
// Throws nlohmann::json::exception or std::invalid_argument on malformed input.
Result result_from_json(const nlohmann::ordered_json& json);
Status status_from_name(const std::string& name);  // throws std::invalid_argument

}  // namespace hostcb
