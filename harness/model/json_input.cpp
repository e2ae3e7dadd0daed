#include "model/json_input.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

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

// nlohmann's DOM parser, refusing a key given twice in one object: nlohmann keeps the last
// without a word, so a trailing "expectations": [] would discard every entry before it.
// The keys of each open object are kept while it is parsed, their lists reused by depth; a
// key is looked for as ordered_json looks for it when it inserts one, so parsing keeps its
// pace.
class DomRefusingDuplicateKeys {
 public:
  using Json = nlohmann::ordered_json;
  struct Duplicate {
    std::string key;
  };
  explicit DomRefusingDuplicateKeys(Json& out) : dom_(out, true) {}
  bool null() { return dom_.null(); }
  bool boolean(bool value) { return dom_.boolean(value); }
  bool number_integer(Json::number_integer_t value) { return dom_.number_integer(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return dom_.number_unsigned(value); }
  bool number_float(Json::number_float_t value, const Json::string_t& text) { return dom_.number_float(value, text); }
  bool string(Json::string_t& value) { return dom_.string(value); }
  bool binary(Json::binary_t& value) { return dom_.binary(value); }
  bool start_array(std::size_t size) { return dom_.start_array(size); }
  bool end_array() { return dom_.end_array(); }
  bool start_object(std::size_t size) {
    if (depth_ == keys_.size()) keys_.emplace_back();
    keys_[depth_++].clear();
    return dom_.start_object(size);
  }
  bool key(Json::string_t& key) {
    std::vector<std::string>& seen = keys_[depth_ - 1];
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) throw Duplicate{key};
    seen.push_back(key);
    return dom_.key(key);
  }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& error) {
    return dom_.parse_error(position, token, error);  // throws it: the caller reads its position
  }

 private:
  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  std::vector<std::vector<std::string>> keys_;  // by depth: the open objects' keys so far
  std::size_t depth_ = 0;
};

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
    nlohmann::ordered_json document;
    DomRefusingDuplicateKeys dom(document);
    nlohmann::ordered_json::sax_parse(text, &dom, nlohmann::ordered_json::input_format_t::json, true, limits.comments);
    return document;
  } catch (const DomRefusingDuplicateKeys::Duplicate& d) {
    throw UsageError(str(name, ": the key \"", d.key.substr(0, 80), "\" is given twice in one object; which one counts "
                                                                     "would be a guess: give it once"));
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
