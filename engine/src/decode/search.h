#pragma once
// Decoding algorithms over token ids, for any StepModel: batched greedy search, beam search,
// forced decoding.
#include <torch/torch.h>

#include <vector>

#include "decode/step_model.h"
#include "model/seq2seq.h"

namespace attnscope {

struct Hypothesis {
  std::vector<int64_t> tokens;  // ends with the model's eos when decoding finished
  std::vector<float> probabilities;
  std::vector<std::vector<float>> attention;  // one row per token, source length each
  // Models with several heads: per token, [layer·head][source] flattened; empty otherwise.
  std::vector<std::vector<float>> heads;
  float log_probability = 0.0f;
  float score = 0.0f;  // what the search ranked by
};

/// Greedy search of every source; max_lengths[i] bounds output i.
std::vector<Hypothesis> greedy_search(StepModel& model,
                                      const std::vector<std::vector<int64_t>>& sources,
                                      const std::vector<int>& max_lengths);

/// Beam search of one source; the final beam ranked by log P / length^length_penalty.
std::vector<Hypothesis> beam_search(StepModel& model, const std::vector<int64_t>& source,
                                    int beam_size, float length_penalty, int max_length);

/// The probabilities and attention of producing `target` (which should end with eos).
Hypothesis forced_decode(StepModel& model, const std::vector<int64_t>& source,
                         const std::vector<int64_t>& target);

/// The same for attnscope's own models (training's validation, the tests).
std::vector<Hypothesis> greedy_search(Seq2Seq& model,
                                      const std::vector<std::vector<int64_t>>& sources,
                                      const std::vector<int>& max_lengths);
std::vector<Hypothesis> beam_search(Seq2Seq& model, const std::vector<int64_t>& source,
                                    int beam_size, float length_penalty, int max_length);

/// Row `row` of a [B,S] tensor, first `length` values.
std::vector<float> tensor_row(const torch::Tensor& matrix, int64_t row, int64_t length);
/// Row `row` of a [B,A,S] tensor, the first `length` values of each of its A rows, flattened.
std::vector<float> head_rows(const torch::Tensor& heads, int64_t row, int64_t length);

}  // namespace attnscope
