// Every JSON document hostcb reads from a user (expectations, results files, matrices)
// goes through here: a size limit, no NUL byte, a nesting limit checked before parsing
// (nlohmann's DOM copies, compares and prints recursively: a deep document crashes them) by
// a walk that reads the text as the parser does (walk_json), errors as
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

// "LINE:COLUMN" of byte `offset` in `text` (1-based). A line ends at "\n", "\r\n" or a lone
// "\r", as editors count them.
std::string line_column(const std::string& text, std::size_t offset);
// How many lines end in text[from, to) (the rule above).
std::size_t line_ends(const std::string& text, std::size_t from, std::size_t to);

// Walks JSON text as nlohmann's lexer reads it, so that what a walk counts is what the parser
// parses: strings are skipped (`on_string(open, close)` with the offsets of their quotes);
// with `comments`, so are "//" comments (to "\n", "\r", a NUL or the end) and "/* */"
// ones; every other '{', '[', '}' and ']' goes to `on_bracket(offset, c)`, which returns
// false to stop the walk. Text the parser would refuse is walked as well as it can be: the
// parser then says what is wrong with it.
template <class OnBracket, class OnString>
void walk_json(const std::string& text, bool comments, OnBracket&& on_bracket, OnString&& on_string) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      const std::size_t open = i;
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      on_string(open, i);
    } else if (comments && c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find_first_of(std::string("\n\r\0", 3), i + 2);
      if (i == std::string::npos) return;
    } else if (comments && c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = text.find("*/", i + 2);
      if (i == std::string::npos) return;
      ++i;
    } else if (c == '{' || c == '[' || c == '}' || c == ']') {
      if (!on_bracket(i, c)) return;
    }
  }
}

// An integer in [min, max]; throws std::invalid_argument naming `what` for anything else
// (a float, a string, a number out of range).
std::int64_t json_integer(const nlohmann::ordered_json& value, std::int64_t min, std::int64_t max, const std::string& what);

}  // namespace hostcb
