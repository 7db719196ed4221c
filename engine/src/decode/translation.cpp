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

namespace {

// One head's [length × length] matrix of [layer][head][query][key] values, or the mean of the
// layer's heads (head < 0); all zeros for a layer or head out of range.
std::vector<std::vector<float>> head_matrix(const std::vector<float>& values, int layers, int heads,
                                            int length, int layer, int head) {
  const auto n = static_cast<size_t>(length);
  std::vector<std::vector<float>> matrix(n, std::vector<float>(n, 0.0f));
  if (layer < 0 || layer >= layers || head >= heads || values.empty()) return matrix;
  const int first = head < 0 ? 0 : head, last = head < 0 ? heads : head + 1;
  for (int h = first; h < last; ++h) {
    const size_t offset = static_cast<size_t>(layer * heads + h) * n * n;
    for (size_t q = 0; q < n; ++q)
      for (size_t k = 0; k < n; ++k) matrix[q][k] += values[offset + q * n + k];
  }
  for (auto& row : matrix)
    for (float& value : row) value /= static_cast<float>(last - first);
  return matrix;
}

}  // namespace

std::vector<std::vector<float>> SelfAttention::encoder_matrix(int layer, int head) const {
  return head_matrix(encoder, layers, heads, source_length, layer, head);
}

std::vector<std::vector<float>> SelfAttention::decoder_matrix(int layer, int head) const {
  return head_matrix(decoder, layers, heads, target_length, layer, head);
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

namespace {

// The rule of 0.9.0 (CopyRule::any_word): the word the row weighs most among those before the
// appended end token, known or not.
void copy_most_attended_words(Translation& t) {
  const auto end = static_cast<size_t>(std::max(t.source.kept_length, 0));
  for (size_t i = 0; i < t.tokens.size() && i < t.attention.size(); ++i) {
    if (t.tokens[i] != t.unknown_token) continue;
    const std::vector<float>& row = t.attention[i];
    const auto words =
        static_cast<std::ptrdiff_t>(std::min({end, t.source.typed.size(), row.size()}));
    if (words == 0) {
      t.kept_unknown.push_back({static_cast<int>(i), KeptUnknown::Reason::kNoUnknownWord});
      continue;
    }
    const auto best = std::max_element(row.begin(), row.begin() + words) - row.begin();
    const auto peak = std::max_element(row.begin(), row.end());
    t.tokens[i] = t.source.typed[static_cast<size_t>(best)];
    t.copied.push_back({static_cast<int>(i), static_cast<int>(best), row[static_cast<size_t>(best)],
                        static_cast<int>(peak - row.begin()), *peak});
  }
}

}  // namespace

void copy_unknown_words(Translation& t, const CopyRule& rule) {
  if (!t.copied.empty() || !t.kept_unknown.empty()) return;  // a copied word may read "<unk>"
  if (rule.any_word) return copy_most_attended_words(t);
  // What a right copy looks like, measured on the validation set (docs/unknown-words.md): an
  // unknown name or number is in the reference a quarter of the time, an unknown lowercase word
  // ("bluish", "thermos") one time in twenty-five, whatever its attention. So only names and
  // numbers are copied; otherwise "<unk>" stays with its reason, and the user sees the gap the
  // model left instead of an English word in the German.
  const size_t words = std::min({static_cast<size_t>(std::max(t.source.kept_length, 0)),
                                 t.source.typed.size(), t.source.unknown.size()});
  // No source words to weigh (a translation read from an attention file, or an empty
  // sentence): there is no reason to give, "<unk>" stays as the model wrote it.
  if (words == 0) return;
  for (size_t i = 0; i < t.tokens.size() && i < t.attention.size(); ++i) {
    if (t.tokens[i] != t.unknown_token) continue;
    const std::vector<float>& row = t.attention[i];
    // The unknown word the row weighs most is the one this step is about: a name or number is
    // copied, a lowercase word is not, and neither is another unknown word it weighs less.
    int best = -1;
    for (size_t s = 0; s < words && s < row.size(); ++s)
      if (t.source.unknown[s] && (best < 0 || row[s] > row[static_cast<size_t>(best)]))
        best = static_cast<int>(s);
    const float weight = best < 0 ? 0.0f : row[static_cast<size_t>(best)];
    const bool common = best >= 0 && is_lowercase_word(t.source.typed[static_cast<size_t>(best)]);
    if (best < 0 || common || !(weight >= rule.min_attention)) {
      KeptUnknown kept;
      kept.target = static_cast<int>(i);
      kept.reason = best < 0 ? KeptUnknown::Reason::kNoUnknownWord
                    : common ? KeptUnknown::Reason::kOnlyCommonWords
                             : KeptUnknown::Reason::kTooLittleAttention;
      kept.source = best;
      kept.attention = weight;
      kept.threshold = rule.min_attention;
      t.kept_unknown.push_back(kept);
      continue;
    }
    const auto peak = std::max_element(row.begin(), row.end());
    t.tokens[i] = t.source.typed[static_cast<size_t>(best)];
    t.copied.push_back(
        {static_cast<int>(i), best, weight, static_cast<int>(peak - row.begin()), *peak});
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
