#include "attnscope/translation.h"

#include <algorithm>
#include <cmath>

#include "attnscope/errors.h"
#include "attnscope/text.h"
#include "attnscope/word_view.h"

namespace attnscope {

std::vector<float> HeadAttention::row(int layer, int head) const {
  std::vector<float> result(static_cast<size_t>(source_length), 0.0f);
  if (layer < 0 || layer >= layers || head >= heads) return result;
  const int first = head < 0 ? 0 : head, last = head < 0 ? heads : head + 1;
  for (int h = first; h < last; ++h) {
    const size_t offset = static_cast<size_t>((layer * heads + h) * source_length);
    for (size_t s = 0; s < result.size(); ++s) result[s] += weights[offset + s];
  }
  for (float& value : result) value /= static_cast<float>(last - first);
  return result;
}

std::vector<std::string> Translation::words() const {
  std::vector<std::string> pieces;
  for (const auto& token : tokens)
    if (token != end_token) pieces.push_back(token);
  if (subword_marker.empty()) return pieces;
  std::vector<std::string> words;
  for (const auto& group : word_groups(pieces, subword_marker, end_token))
    words.push_back(word_text(pieces, group, subword_marker));
  return words;
}

std::string Translation::text() const { return join_tokens(words()); }

std::vector<std::vector<float>> Translation::attention_for(const AttentionChoice& choice) const {
  if (choice.layer < 0 || head_attention.empty()) return attention;
  std::vector<std::vector<float>> rows;
  for (const auto& step : head_attention) rows.push_back(step.row(choice.layer, choice.head));
  return rows;
}

void copy_unknown_words(Translation& t) {
  if (!t.copied.empty()) return;  // copied already; a copied word may itself read "<unk>"
  // Positions from kept_length on hold the appended end token: copying it would say nothing,
  // so the choice is among the words before it, and a row that weighs the end token most
  // copies its runner-up (the rule kept "<unk>" there; see README, Unknown words).
  const auto end = static_cast<size_t>(std::max(t.source.kept_length, 0));
  for (size_t i = 0; i < t.tokens.size() && i < t.attention.size(); ++i) {
    if (t.tokens[i] != t.unknown_token) continue;
    const std::vector<float>& row = t.attention[i];
    const auto candidates =
        static_cast<std::ptrdiff_t>(std::min({end, t.source.typed.size(), row.size()}));
    if (candidates == 0) continue;
    const auto best =
        static_cast<size_t>(std::max_element(row.begin(), row.begin() + candidates) - row.begin());
    const float end_attention =
        end < row.size()
            ? *std::max_element(row.begin() + static_cast<std::ptrdiff_t>(end), row.end())
            : 0.0f;
    t.tokens[i] = t.source.typed[best];
    t.copied.push_back({static_cast<int>(i), static_cast<int>(best), row[best], end_attention});
  }
}

float attention_entropy(const std::vector<float>& row) {
  double entropy = 0.0;
  for (float a : row)
    if (a > 0.0f) entropy -= a * std::log(static_cast<double>(a));
  return static_cast<float>(entropy);
}

std::vector<int> BeamTree::path(int node) const {
  if (node < 0 || node >= static_cast<int>(nodes.size()))
    ATTNSCOPE_THROW_INVALID_ARGUMENT("beam tree node ", node, " does not exist: the tree has ",
                                     nodes.size(), " nodes");
  std::vector<int> ids;
  for (int n = node; n > 0; n = nodes[static_cast<size_t>(n)].parent)
    ids.push_back(nodes[static_cast<size_t>(n)].token_id);
  return {ids.rbegin(), ids.rend()};
}

const char* BeamTree::state_name(BeamNode::State state) {
  switch (state) {
    case BeamNode::State::kRoot:
      return "root";
    case BeamNode::State::kKept:
      return "kept";
    case BeamNode::State::kPruned:
      return "pruned";
    case BeamNode::State::kFinished:
      return "finished";
  }
  return "?";
}

}  // namespace attnscope
