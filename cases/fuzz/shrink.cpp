#include "cases/fuzz/shrink.hpp"

#include <stdexcept>
#include <vector>

#include "cases/fuzz/model.hpp"

namespace hostcb::fuzz {

std::string cuts_word(const Cuts& cuts) {
  std::map<int, std::vector<std::string>> tokens;  // in op order
  for (int op : cuts.ops) tokens[op].push_back(std::to_string(op));
  for (auto [op, node] : cuts.nodes) tokens[op].push_back(std::to_string(op) + "n" + std::to_string(node));
  for (auto [op, times] : cuts.times) tokens[op].push_back(std::to_string(op) + "r" + std::to_string(times));
  std::string word;
  for (const auto& [op, list] : tokens)
    for (const auto& token : list) word += (word.empty() ? "" : ".") + token;
  return word.empty() ? "none" : word;
}

namespace {
int number(const std::string& text, const std::string& word) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos ||
      (text.size() > 1 && text[0] == '0'))
    throw std::invalid_argument("cut '" + word + "': '" + text + "' is not a number");
  return std::stoi(text);
}
}  // namespace

Cuts parse_cuts(const std::string& word) {
  Cuts cuts;
  if (word == "none") return cuts;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = word.find('.', start);
    std::string token = word.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    std::size_t letter = token.find_first_of("nr");
    if (letter == std::string::npos) {
      cuts.ops.insert(number(token, word));
    } else {
      int op = number(token.substr(0, letter), word);
      int value = number(token.substr(letter + 1), word);
      if (token[letter] == 'n')
        cuts.nodes.insert({op, value});
      else if (value < 1)
        throw std::invalid_argument("cut '" + word + "': an operation launches at least once");
      else
        cuts.times[op] = value;
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (cuts_word(cuts) != word)  // one spelling per set of cuts: ids stay unique
    throw std::invalid_argument("cut '" + word + "': write it as '" + cuts_word(cuts) + "'");
  return cuts;
}

Program apply_cuts(const Program& program, const Cuts& cuts) {
  Program cut = program;
  cut.ops.clear();
  for (Op op : program.ops) {
    if (cuts.ops.count(op.index)) continue;
    std::vector<Item> items;
    for (const auto& item : op.items)
      if (!cuts.nodes.count({op.index, item.name})) items.push_back(item);
    op.items = std::move(items);
    auto times = cuts.times.find(op.index);
    if (times != cuts.times.end() && op.kind == OpKind::launch) op.times = std::min(op.times, times->second);
    cut.ops.push_back(std::move(op));
  }
  return legalize(cut);
}

Cuts shrink(const Program& program, const Cuts& start, const StillFails& still_fails) {
  return shrink(program, start, 1, [&](const std::vector<Cuts>& candidates) -> std::optional<std::size_t> {
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (still_fails(candidates[k])) return k;
    return std::nullopt;
  });
}

Cuts shrink(const Program& program, const Cuts& start, std::size_t window, const FirstFailing& first_failing) {
  window = std::max<std::size_t>(1, window);
  Cuts best = start;
  // The first of `candidates` (all made from `best`) that still fails becomes the best,
  // asked `window` at a time.
  auto accept_first = [&](const std::vector<Cuts>& candidates) {
    for (std::size_t at = 0; at < candidates.size(); at += window) {
      const std::vector<Cuts> some(candidates.begin() + static_cast<std::ptrdiff_t>(at),
                                   candidates.begin() + static_cast<std::ptrdiff_t>(std::min(candidates.size(), at + window)));
      if (std::optional<std::size_t> k = first_failing(some)) {
        best = some[*k];
        return true;
      }
    }
    return false;
  };
  auto accept = [&](const Cuts& candidate) { return !(candidate == best) && accept_first({candidate}); };
  for (bool progress = true; progress;) {
    progress = false;
    // Operations, in chunks that halve down to one (delta debugging's complements).
    for (std::size_t chunk = std::max<std::size_t>(1, apply_cuts(program, best).ops.size() / 2);; chunk /= 2) {
      for (bool removed = true; removed;) {
        const Program now = apply_cuts(program, best);
        std::vector<Cuts> round;  // each chunk cut from the same best: they can run side by side
        for (std::size_t first = 0; first < now.ops.size(); first += chunk) {
          Cuts candidate = best;
          for (std::size_t i = first; i < std::min(now.ops.size(), first + chunk); ++i)
            candidate.ops.insert(now.ops[i].index);
          if (!(candidate == best)) round.push_back(std::move(candidate));
        }
        removed = accept_first(round);
        progress = progress || removed;
      }
      if (chunk <= 1) break;
    }
    // Then nodes, one at a time, and fewer launches.
    const Program now = apply_cuts(program, best);
    for (const Op& op : now.ops) {
      for (const Item& item : op.items) {
        Cuts candidate = best;
        candidate.nodes.insert({op.index, item.name});
        progress = accept(candidate) || progress;
      }
      if (op.kind == OpKind::launch && op.times > 1) {
        Cuts candidate = best;
        candidate.times[op.index] = 1;
        if (!accept(candidate)) {
          candidate.times[op.index] = op.times - 1;
          progress = accept(candidate) || progress;
        } else {
          progress = true;
        }
      }
    }
  }
  return best;
}

}  // namespace hostcb::fuzz
