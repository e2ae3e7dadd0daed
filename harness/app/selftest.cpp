#include "app/selftest.hpp"

#include <algorithm>

#include "model/errors.hpp"

namespace hostcb {

namespace {

std::string what_it_said(const Result& r) {
  if (!r.reason.empty()) return first_line(r.reason);
  return r.failures.empty() ? "" : first_line(describe_failure(r.failures.front()));
}
}  // namespace

bool verdict_matches(const Result& result, const ExpectedVerdict& expected) {
  if (std::find(expected.any_of.begin(), expected.any_of.end(), result.status) == expected.any_of.end()) return false;
  if (expected.mentions.empty()) return true;
  if (result.reason.find(expected.mentions) != std::string::npos) return true;
  for (const auto& f : result.failures)
    if (f.message.find(expected.mentions) != std::string::npos) return true;
  return false;
}

std::vector<ControlOutcome> judge_controls(const std::vector<Scenario>& plan, const std::vector<Result>& results) {
  std::vector<ControlOutcome> outcomes;
  for (std::size_t i = 0; i < plan.size() && i < results.size(); ++i) {
    if (!plan[i].control) continue;
    const Result& r = results[i];
    std::string said = what_it_said(r);
    outcomes.push_back({plan[i].id, plan[i].control->describe(),
                        std::string(status_name(r.status)) + (said.empty() ? "" : ": " + said),
                        verdict_matches(r, *plan[i].control), r.status == Status::skipped});
  }
  return outcomes;
}

std::string controls_table(const std::vector<ControlOutcome>& outcomes) {
  std::size_t id_width = 7, expected_width = 8;
  for (const auto& o : outcomes) {
    id_width = std::max(id_width, o.id.size());
    expected_width = std::max(expected_width, o.expected.size());
  }
  auto pad = [](std::string text, std::size_t width) { return text + std::string(width - std::min(width, text.size()), ' '); };
  std::string table = pad("control", id_width) + "  " + pad("expected", expected_width) + "  caught  observed\n";
  for (const auto& o : outcomes) {
    std::string observed = o.observed.size() > 120 ? o.observed.substr(0, 117) + "..." : o.observed;
    table += pad(o.id, id_width) + "  " + pad(o.expected, expected_width) + "  " + pad(o.caught ? "yes" : o.skipped ? "-" : "NO", 6) +
             "  " + observed + "\n";
  }
  return table;
}

}  // namespace hostcb
