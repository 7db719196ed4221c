#pragma once
// Parallel corpora for training: reading, tokenising, id mapping and length-bucketed batches.
#include <torch/torch.h>

#include <string>
#include <vector>

#include "attnscope/vocabulary.h"
#include "io/subword_model.h"

namespace attnscope {

struct TokenizedPairs {
  std::vector<std::vector<std::string>> source;
  std::vector<std::vector<std::string>> target;
  int skipped = 0;  // pairs dropped: an empty side, or a source over the length limit
};

/// Reads two line-aligned files, each line split into model_words() (cased: as written);
/// throws std::invalid_argument when their line counts differ.
TokenizedPairs read_parallel(const std::string& source_path, const std::string& target_path,
                             int64_t max_source_tokens, bool cased = false);

/// A subword model's corpus: every pair split into pieces by the two models. Pairs whose source
/// needs more than `max_source_tokens` pieces are dropped (counted in `skipped`); `kept` gets the
/// indices of the pairs kept.
TokenizedPairs split_into_pieces(const TokenizedPairs& words, const SubwordModel& source,
                                 const SubwordModel& target, int64_t max_source_tokens,
                                 std::vector<size_t>& kept);

struct IdPair {
  std::vector<int64_t> source;  // words then kEos
  std::vector<int64_t> target;  // kBos, words, kEos
};

std::vector<IdPair> to_ids(const TokenizedPairs& pairs, const Vocabulary& source_vocabulary,
                           const Vocabulary& target_vocabulary);

struct Batch {
  torch::Tensor source;       // [B,S] padded
  torch::Tensor lengths;      // [B]
  torch::Tensor target;       // [B,T] padded, kBos first
  int64_t target_tokens = 0;  // predicted tokens (kEos included, kBos not)
};

/// Groups pair indices into batches of similar source length (then target length), so little
/// of each batch is padding.
std::vector<std::vector<size_t>> length_buckets(const std::vector<IdPair>& pairs, int batch_size);

Batch make_batch(const std::vector<IdPair>& pairs, const std::vector<size_t>& indices);

}  // namespace attnscope
