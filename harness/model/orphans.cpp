#include "model/orphans.hpp"

namespace hostcb {

void OrphanCounts::add(const std::string& scenario_id, std::uint64_t count) {
  if (!count) return;
  for (auto& [id, n] : by_scenario_)
    if (id == scenario_id) {
      n += count;
      return;
    }
  by_scenario_.emplace_back(scenario_id, count);
}

void OrphanCounts::add(const OrphanCounts& other) {
  for (const auto& [id, n] : other.by_scenario_) add(id, n);
}

std::uint64_t OrphanCounts::total() const {
  std::uint64_t sum = 0;
  for (const auto& entry : by_scenario_) sum += entry.second;
  return sum;
}

std::string OrphanCounts::describe() const {
  std::string text = std::to_string(total()) +
                     " callback event(s) found no active scenario or armed probe (a host function outlived its "
                     "scenario or ran before its probe):";
  for (const auto& [id, n] : by_scenario_)
    text += " " + std::to_string(n) + (id.empty() ? " before any scenario;" : " during or after " + id + ";");
  text.back() = '.';  // the list's last ';', or the ':' when nothing was blamed
  return text;
}

}  // namespace hostcb
