// A range of package versions written as Python's packaging writes one (PEP 440 version
// specifiers: ">=13.0,<13.5", "==12.9.*", "~=0.30"), for the release versions layers report.
//
// Clauses are joined by commas and all must hold. Each is an operator (==, !=, <, <=, >,
// >=, ~=) and a release version (numbers joined by dots); == and != may end in ".*" (the
// version starts with those numbers). Versions compare number by number, the shorter
// padded with zeros, so 13.0 == 13.0.0; "~=X.Y" is ">=X.Y, ==X.*" (at least two numbers).
// A version that is not a plain release (13.5.0rc1, 1.0.post1, 2.0+local) is in no range:
// hostcb compares release versions only (packaging would place those too), and an
// expectation that may not apply is safer not applied. A range no release version is in
// ("<1.2.3,>1.2.3") is refused: it is a typo, and an expectation under it never applies.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hostcb {

class VersionSpecifier {
 public:
  // Throws std::invalid_argument saying what is wrong, for text that is no specifier.
  static VersionSpecifier parse(const std::string& text);
  bool contains(const std::string& version) const;
  const std::string& text() const { return text_; }

 private:
  enum class Op { eq, ne, lt, le, gt, ge, prefix_eq, prefix_ne };
  struct Clause {
    Op op;
    std::vector<std::uint64_t> release;
  };
  bool holds(const std::vector<std::uint64_t>& release) const;
  bool holds_some_release() const;
  std::string text_;
  std::vector<Clause> clauses_;
};

// The numbers of a plain release version ("13.3.1" -> 13, 3, 1), or nullopt for anything
// else (empty parts, letters, over 9 digits in a number).
std::optional<std::vector<std::uint64_t>> parse_release(const std::string& version);
// Why `version` is no plain release version ("has a number of 10 digits; at most 9"), or ""
// when it is one: what parse_release refuses, in words.
std::string release_problem(const std::string& version);

}  // namespace hostcb
