#include "model/selected_combinations.hpp"

namespace hostcb {

SelectedCombinations::SelectedCombinations(const std::string& family, const std::vector<Axis>& axes,
                                           const GlobSet& positive, const GlobSet& negative, std::uint64_t limit,
                                           const std::function<void()>& poll)
    : axes_(axes), positive_(positive), negative_(negative), limit_(limit), poll_(poll), memo_(axes.size() + 1) {
  try {
    root_ = build(0, positive.step(positive.start(), family), negative.step(negative.start(), family));
  } catch (const Over&) {
    over_limit_ = true;
    nodes_.clear();
    memo_.clear();
  }
}

std::uint32_t SelectedCombinations::build(std::size_t level, const GlobSet::State& pos, const GlobSet::State& neg) {
  auto key = std::make_pair(pos, neg);
  if (auto found = memo_[level].find(key); found != memo_[level].end()) return found->second;
  Node node;
  if (level == axes_.size()) {
    node.count = positive_.matches(pos) && !negative_.matches(neg) ? 1 : 0;
  } else if (!positive_.dead(pos) && !negative_.matches_any_continuation(neg)) {
    const Axis& axis = axes_[level];
    const std::string name = "/" + axis.name + "=";
    const GlobSet::State pos_axis = positive_.step(pos, name), neg_axis = negative_.step(neg, name);
    GlobSet::State last_pos, last_neg;  // most values lead where the one before did: no lookup then
    std::uint32_t last_child = 0;
    bool have_last = false;
    const bool axis_dead = positive_.dead(pos_axis);
    for (std::size_t v = 0; v < axis.values.size(); ++v) {
      // The value an axis leaves out of ids (Axis::leave_out_of_ids) adds nothing to the text.
      const bool spelled = axis.spelled(axis.values[v]);
      if (v % 4096 == 4095) poll_();
      if (spelled && axis_dead) {
        if (axis.left_out.empty()) break;
        continue;
      }
      GlobSet::State child_pos = spelled ? positive_.step(pos_axis, axis.values[v]) : pos;
      GlobSet::State child_neg = spelled ? negative_.step(neg_axis, axis.values[v]) : neg;
      const bool same = have_last && child_pos == last_pos && child_neg == last_neg;
      const std::uint32_t child = same ? last_child : build(level + 1, child_pos, child_neg);
      last_pos = std::move(child_pos);
      last_neg = std::move(child_neg);
      last_child = child;
      have_last = true;
      const std::uint64_t n = nodes_[child].count;
      if (n == 0) continue;
      node.children.emplace_back(static_cast<std::uint32_t>(v), child);
      node.count += n;
      if (node.count > limit_) throw Over{};  // a part is over: so is the whole
    }
  }
  if (node.count > limit_) throw Over{};
  nodes_.push_back(std::move(node));
  const auto id = static_cast<std::uint32_t>(nodes_.size() - 1);
  memo_[level].emplace(std::move(key), id);
  return id;
}

void SelectedCombinations::for_each(const std::function<void(Params)>& visit) const {
  if (over_limit_ || nodes_[root_].count == 0) return;
  std::vector<std::uint32_t> values;
  visit_from(root_, 0, values, visit);
}

void SelectedCombinations::visit_from(std::uint32_t node, std::size_t level, std::vector<std::uint32_t>& values,
                                      const std::function<void(Params)>& visit) const {
  if (level == axes_.size()) {
    Params params;
    for (std::size_t a = 0; a < axes_.size(); ++a) params.add(axes_[a].name, axes_[a].values[values[a]]);
    visit(std::move(params));
    return;
  }
  for (const auto& [value, child] : nodes_[node].children) {
    values.push_back(value);
    visit_from(child, level + 1, values, visit);
    values.pop_back();
  }
}

}  // namespace hostcb
