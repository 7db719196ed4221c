#pragma once
// Decoding algorithms over token ids: batched greedy search, beam search, forced decoding.
#include <torch/torch.h>

#include <vector>

#include "model/seq2seq.h"

namespace attnscope {

struct Hypothesis {
  std::vector<int64_t> tokens;  // ends with kEos when decoding finished
  std::vector<float> probabilities;
  std::vector<std::vector<float>> attention;  // one row per token, source length each
  float log_probability = 0.0f;
  float score = 0.0f;  // what the search ranked by
};

/// Pads source id sequences (each ending with kEos) into one batch and encodes it.
EncodedBatch encode_sources(Seq2Seq& model, const std::vector<std::vector<int64_t>>& sources);

/// Greedy search of every source; max_lengths[i] bounds output i.
std::vector<Hypothesis> greedy_search(Seq2Seq& model,
                                      const std::vector<std::vector<int64_t>>& sources,
                                      const std::vector<int>& max_lengths);

/// Beam search of one source; the final beam ranked by log P / length^length_penalty.
std::vector<Hypothesis> beam_search(Seq2Seq& model, const std::vector<int64_t>& source,
                                    int beam_size, float length_penalty, int max_length);

/// The probabilities and attention of producing `target` (which should end with kEos).
Hypothesis forced_decode(Seq2Seq& model, const std::vector<int64_t>& source,
                         const std::vector<int64_t>& target);

/// Row `row` of a [B,S] tensor, first `length` values.
std::vector<float> tensor_row(const torch::Tensor& matrix, int64_t row, int64_t length);

}  // namespace attnscope
