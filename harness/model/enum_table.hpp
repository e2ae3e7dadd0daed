// An enum's names, in one table: parsing, printing, the CLI's validation and its --help all
// read the same entries, so a value cannot be added in one place and forgotten in another.
//
//   inline constexpr EnumTable<Isolation, 3> kIsolations{"--isolate", {{
//       {Isolation::none, "none"}, {Isolation::worker, "worker"}, {Isolation::scenario, "scenario"}}}};
//   kIsolations.parse("worker")   // Isolation::worker; anything else is a UsageError:
//                                 // "--isolate takes none, worker or scenario; got 'x'"
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/errors.hpp"

namespace hostcb {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

template <class E, std::size_t N>
class EnumTable {
 public:
  constexpr EnumTable(const char* what, std::array<EnumName<E>, N> entries) : what_(what), entries_(entries) {}

  // The value's name; "?" for a value outside the table (a cast from a bad integer).
  const char* name(E value) const {
    for (const auto& e : entries_)
      if (e.value == value) return e.name;
    return "?";
  }
  std::optional<E> find(std::string_view text) const {
    for (const auto& e : entries_)
      if (text == e.name) return e.value;
    return std::nullopt;
  }
  // Throws UsageError naming what is parsed and every name it takes.
  E parse(const std::string& text) const {
    if (auto value = find(text)) return *value;
    throw UsageError(str(what_, " takes ", choices(), "; got '", text, "'"));
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) out.emplace_back(e.name);
    return out;
  }
  // "none, worker or scenario"
  std::string choices() const {
    std::string text;
    for (std::size_t i = 0; i < N; ++i) text += str(i == 0 ? "" : i + 1 == N ? " or " : ", ", entries_[i].name);
    return text;
  }
  const std::array<EnumName<E>, N>& entries() const { return entries_; }

 private:
  const char* what_;
  std::array<EnumName<E>, N> entries_;
};

}  // namespace hostcb
