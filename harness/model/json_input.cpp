#include "model/json_input.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "model/errors.hpp"

namespace hostcb {

namespace {

// The offset of the first bracket nested deeper than `max_depth`, or npos.
std::size_t too_deep_at(const std::string& text, int max_depth, bool comments) {
  int depth = 0;
  std::size_t deep = std::string::npos;
  walk_json(
      text, comments,
      [&](std::size_t at, char c) {
        if (c == '{' || c == '[') {
          if (++depth <= max_depth) return true;
          deep = at;
          return false;
        }
        --depth;
        return true;
      },
      [](std::size_t, std::size_t) {});
  return deep;
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

std::size_t line_ends(const std::string& text, std::size_t from, std::size_t to) {
  std::size_t ends = 0;
  for (std::size_t i = from; i < to && i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) ++ends;
  return ends;
}

std::string line_column(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::size_t line = 1 + line_ends(text, 0, offset);
  std::size_t start = offset;  // the first byte of the line `offset` is on
  while (start > 0 && text[start - 1] != '\n' && text[start - 1] != '\r') --start;
  return str(line, ":", offset - start + 1);
}

nlohmann::ordered_json parse_json_input(const std::string& text, const std::string& name, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    throw UsageError(str(name, ": ", text.size(), " bytes; more than the ", limits.max_bytes, " this reader takes"));
  // nlohmann's lexer ends its input at a NUL byte, and a "//" comment at one: text after
  // it would be read by one reader and not another. JSON text holds none.
  if (std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw UsageError(str(name, ":", line_column(text, nul), ": a NUL byte, which JSON text never holds"));
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
