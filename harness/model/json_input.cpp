#include "model/json_input.hpp"

#include <cstdio>
#include <stdexcept>

#include "model/errors.hpp"

namespace hostcb {

namespace {

// The offset of the first bracket nested deeper than `max_depth`, or npos. Skips strings
// and (when allowed) comments; text it misreads is left for the parser to refuse.
std::size_t too_deep_at(const std::string& text, int max_depth, bool comments) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (comments && c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
    } else if (comments && c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = text.find("*/", i + 2);
      if (i == std::string::npos) break;
      ++i;
    } else if (c == '{' || c == '[') {
      if (++depth > max_depth) return i;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return std::string::npos;
}

}  // namespace

std::string line_column(const std::string& text, std::size_t offset) {
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

nlohmann::ordered_json parse_json_input(const std::string& text, const std::string& name, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    throw UsageError(str(name, ": ", text.size(), " bytes; more than the ", limits.max_bytes, " this reader takes"));
  std::size_t deep = too_deep_at(text, limits.max_depth, limits.comments);
  if (deep != std::string::npos)
    throw UsageError(str(name, ":", line_column(text, deep), ": nested more than ", limits.max_depth, " levels deep"));
  try {
    return nlohmann::ordered_json::parse(text, nullptr, true, limits.comments);
  } catch (const nlohmann::json::parse_error& e) {
    // "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    std::string what = e.what();
    std::size_t colon = what.find(": ", what.find("parse error"));
    std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    std::string where = line_column(text, e.byte > 0 ? e.byte - 1 : 0);
    std::size_t at = what.find("line ");
    int line = 0, column = 0;
    if (at != std::string::npos && std::sscanf(what.c_str() + at, "line %d, column %d", &line, &column) == 2)
      where = str(line, ":", column);
    throw UsageError(str(name, ":", where, ": not valid JSON: ", detail));
  }
}

std::int64_t json_integer(const nlohmann::ordered_json& value, std::int64_t min, std::int64_t max,
                          const std::string& what) {
  bool in_range = false;
  std::int64_t n = 0;
  if (value.is_number_unsigned()) {
    auto u = value.get<std::uint64_t>();
    in_range = max >= 0 && u <= static_cast<std::uint64_t>(max) && static_cast<std::int64_t>(u) >= min;
    n = static_cast<std::int64_t>(u);
  } else if (value.is_number_integer()) {
    n = value.get<std::int64_t>();
    in_range = n >= min && n <= max;
  } else {
    throw std::invalid_argument(str(what, " must be an integer, not ", value.dump().substr(0, 40)));
  }
  if (!in_range) throw std::invalid_argument(str(what, " must be from ", min, " to ", max, ", not ", value.dump()));
  return n;
}

}  // namespace hostcb
