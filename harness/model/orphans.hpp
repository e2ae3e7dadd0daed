// Orphan events, counted: host-function calls that found no active scenario or no armed
// probe. Each is blamed on a scenario (the one active when it came, else the one active
// last; "" before the first). They fail a run, so they travel as data: from a worker in its
// events, from the supervisor in what execute_plan returns, to the verdict.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hostcb {

class OrphanCounts {
 public:
  void add(const std::string& scenario_id, std::uint64_t count);
  void add(const OrphanCounts& other);
  std::uint64_t total() const;
  bool empty() const { return by_scenario_.empty(); }
  // By scenario, in the order of the first orphan blamed on each.
  const std::vector<std::pair<std::string, std::uint64_t>>& by_scenario() const { return by_scenario_; }
  // One line for the console: how many, and after which scenarios.
  std::string describe() const;

 private:
  std::vector<std::pair<std::string, std::uint64_t>> by_scenario_;
};

}  // namespace hostcb
