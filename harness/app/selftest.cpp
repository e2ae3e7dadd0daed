#include "app/selftest.hpp"

#include <algorithm>
#include <set>

#include "model/errors.hpp"

namespace hostcb {

namespace {

std::string what_it_said(const Result& r) {
  if (!r.reason.empty()) return first_line(r.reason);
  return r.failures.empty() ? "" : first_line(describe_failure(r.failures.front()));
}

// Each "[tag]" in `message`: a '[', lower-case letters or '_', a ']'.
void add_tags(const std::string& message, std::vector<std::string>& tags) {
  for (std::size_t open = message.find('['); open != std::string::npos; open = message.find('[', open + 1)) {
    std::size_t end = open + 1;
    while (end < message.size() && ((message[end] >= 'a' && message[end] <= 'z') || message[end] == '_')) ++end;
    if (end == open + 1 || end >= message.size() || message[end] != ']') continue;
    std::string tag = message.substr(open, end - open + 1);
    if (std::find(tags.begin(), tags.end(), tag) == tags.end()) tags.push_back(tag);
  }
}
}  // namespace

std::vector<std::string> checks_that_caught(const Result& result) {
  std::vector<std::string> tags;
  for (const auto& failure : result.failures) add_tags(failure.message, tags);
  if (result.status == Status::error) tags.push_back("error");
  return tags;
}

bool verdict_matches(const Result& result, const ExpectedVerdict& expected) {
  if (std::find(expected.any_of.begin(), expected.any_of.end(), result.status) == expected.any_of.end()) return false;
  if (expected.mentions.empty()) return true;
  if (result.reason.find(expected.mentions) != std::string::npos) return true;
  for (const auto& f : result.failures)
    if (f.message.find(expected.mentions) != std::string::npos) return true;
  return false;
}

std::vector<Scenario> one_control_per_check(const std::vector<Scenario>& controls) {
  std::vector<Scenario> chosen;
  std::set<std::string> seen;
  for (const Scenario& s : controls) {
    if (!s.control) continue;
    const std::string layer = s.params.has("forward") ? s.params.get("forward") : "";
    if (seen.insert(s.family->name + "\n" + layer + "\n" + s.control->describe()).second) chosen.push_back(s);
  }
  return chosen;
}

std::vector<ControlOutcome> judge_controls(const std::vector<Scenario>& plan, const std::vector<Result>& results) {
  std::vector<ControlOutcome> outcomes;
  for (std::size_t i = 0; i < plan.size() && i < results.size(); ++i) {
    if (!plan[i].control) continue;
    const Result& r = results[i];
    std::string said = what_it_said(r);
    outcomes.push_back({plan[i].id, plan[i].control->describe(),
                        std::string(status_name(r.status)) + (said.empty() ? "" : ": " + said), checks_that_caught(r),
                        verdict_matches(r, *plan[i].control), r.status == Status::skipped});
  }
  return outcomes;
}

std::string controls_table(const std::vector<ControlOutcome>& outcomes) {
  auto joined = [](const std::vector<std::string>& checks) {
    std::string text;
    for (const auto& check : checks) text += (text.empty() ? "" : " ") + check;
    return text.empty() ? std::string("-") : text;
  };
  std::size_t id_width = 7, expected_width = 8, checks_width = 6;
  for (const auto& o : outcomes) {
    id_width = std::max(id_width, o.id.size());
    expected_width = std::max(expected_width, o.expected.size());
    checks_width = std::max(checks_width, joined(o.checks).size());
  }
  auto pad = [](std::string text, std::size_t width) { return text + std::string(width - std::min(width, text.size()), ' '); };
  std::string table = pad("control", id_width) + "  " + pad("expected", expected_width) + "  caught  " +
                      pad("by", checks_width) + "  observed\n";
  for (const auto& o : outcomes) {
    std::string observed = o.observed.size() > 120 ? o.observed.substr(0, 117) + "..." : o.observed;
    table += pad(o.id, id_width) + "  " + pad(o.expected, expected_width) + "  " + pad(o.caught ? "yes" : o.skipped ? "-" : "NO", 6) +
             "  " + pad(joined(o.checks), checks_width) + "  " + observed + "\n";
  }
  return table;
}

std::string checks_summary(const std::vector<ControlOutcome>& outcomes) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  for (const auto& o : outcomes) {
    if (!o.caught) continue;
    for (const auto& check : o.checks) {
      auto known = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == check; });
      if (known == counts.end()) counts.emplace_back(check, 1);
      else ++known->second;
    }
  }
  std::string line = "caught by:";
  for (std::size_t i = 0; i < counts.size(); ++i) line += str(i ? ", " : " ", counts[i].first, " ", counts[i].second);
  return counts.empty() ? line + " nothing" : line;
}

}  // namespace hostcb
