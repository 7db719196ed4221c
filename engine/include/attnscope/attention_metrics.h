#pragma once
// How a model's attention behaves, measured on its matrices rather than looked at: how spread
// out each step is, how much of it the end token soaks up, how closely it follows the diagonal,
// and how evenly it covers the source. Summed over a corpus, they tell score functions apart.
#include <cstddef>
#include <string>
#include <vector>

namespace attnscope {

/// Sums over the attention matrices of a corpus; `mean_*()` give the per-step or per-token means.
/// Every matrix is [target step][source token], each row summing to 1.
struct AttentionMetrics {
  double entropy_sum = 0;      // per step: −Σ a·log(a), in nats as the step panel shows it
  double diagonality_sum = 0;  // per step: |argmax / S − step / T| for S source tokens, T steps
  size_t steps = 0;
  double end_sink_sum = 0;  // per step before the last: the weight on the source's end token
  size_t sink_steps = 0;    // steps before the last, of matrices whose source has an end token
  double coverage_sum = 0;  // per source token: |Σ over steps of its weight − 1|
  size_t source_tokens = 0;

  /// Adds one matrix. `end_column`: the index of the source's end token ("</s>"), or -1 when the
  /// source has none (then the matrix adds nothing to the end-of-sentence sink). Throws
  /// std::invalid_argument for ragged rows or an end column outside them.
  void add(const std::vector<std::vector<float>>& attention, int end_column);
  void add(const AttentionMetrics& other);

  double mean_entropy() const;          // nats (0: all weight on one token; log S: uniform)
  double mean_end_sink() const;         // 0..1: share of attention on "</s>" before the last step
  double mean_diagonality() const;      // 0 (on the diagonal) .. 1
  double mean_coverage_spread() const;  // 0: every source token receives 1 in all
};

/// The source-length buckets of `bleu_by_length`: 1–10, 11–20, 21–30 and 31+ words.
struct LengthBucket {
  int first = 0;
  int last = 0;               // 0: no upper bound
  std::string label() const;  // "1–10", "31+"
};
const std::vector<LengthBucket>& length_buckets();
/// The bucket of a source of `words` words (an empty source counts with the first).
size_t length_bucket_of(size_t words);

}  // namespace attnscope
