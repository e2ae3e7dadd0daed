// Every JSON document hostcb reads from a user (expectations, results files, matrices)
// goes through here: a size limit, a nesting limit checked before parsing (nlohmann's
// DOM copies and compares recursively: a deep document crashes them), errors as
// "NAME:LINE:COLUMN: what", and integers read with their range checked.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace hostcb {

struct JsonLimits {
  std::size_t max_bytes = std::size_t{256} << 20;
  int max_depth = 64;
  bool comments = false;  // accept // and /* */ (the expectations file)
};

// Throws UsageError "NAME:LINE:COLUMN: ..." for text over the limits or not JSON.
nlohmann::ordered_json parse_json_input(const std::string& text, const std::string& name, const JsonLimits& limits = {});

// "LINE:COLUMN" of byte `offset` in `text` (1-based).
std::string line_column(const std::string& text, std::size_t offset);

// An integer in [min, max]; throws std::invalid_argument naming `what` for anything else
// (a float, a string, a number out of range).
std::int64_t json_integer(const nlohmann::ordered_json& value, std::int64_t min, std::int64_t max, const std::string& what);

}  // namespace hostcb
