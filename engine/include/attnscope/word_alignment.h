#pragma once
// Word alignments read off attention (the alignment figures of Bahdanau et al. 2015), and how
// well they agree with a gold alignment: precision, recall and alignment error rate (Och & Ney
// 2003, "A systematic comparison of various statistical alignment models").
#include <string>
#include <string_view>
#include <vector>

#include "attnscope/attention_file.h"

namespace attnscope {

/// How attention becomes links.
struct AlignmentMethod {
  enum Kind { kArgmax, kThreshold };
  Kind kind = kArgmax;
  float threshold = 0.5f;  // kThreshold: every weight at or above it links
};

/// "argmax" or "threshold:X" with 0 < X <= 1; throws std::invalid_argument quoting the text.
AlignmentMethod parse_alignment_method(std::string_view text);

/// Sure links from `weights` [target word][source word]: kArgmax links each target word to the
/// source word its row weighs most (the first of equal weights; none when the row is all zero),
/// kThreshold every cell at or above the threshold. Sorted by source word, then target word.
std::vector<AlignmentLink> alignment_from_attention(const std::vector<std::vector<float>>& weights,
                                                    const AlignmentMethod& method);

/// Pharaoh text, source index first, 0-based: "0-0 1-2", a possible link as "1?2".
std::string pharaoh_text(const std::vector<AlignmentLink>& links);

/// Link counts summed over a corpus, and the scores of Och & Ney: A the predicted links, S the
/// sure gold links, P the possible gold links together with the sure ones.
struct AlignmentScore {
  size_t predicted = 0;         // |A|
  size_t sure = 0;              // |S|
  size_t sure_matches = 0;      // |A ∩ S|
  size_t possible_matches = 0;  // |A ∩ P|

  /// Adds one sentence pair. Whether a predicted link is sure or possible does not matter.
  void add(const std::vector<AlignmentLink>& predicted, const std::vector<AlignmentLink>& gold);

  double precision() const;  // |A ∩ P| / |A|; 0 when nothing was predicted
  double recall() const;     // |A ∩ S| / |S|; 0 when the gold set has no sure link
  double aer() const;        // 1 − (|A ∩ S| + |A ∩ P|) / (|A| + |S|); 0 when both are empty
};

}  // namespace attnscope
