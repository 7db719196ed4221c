#pragma once
#include "model/score/score_function.h"

namespace attnscope {

/// The `none` baseline, Bahdanau et al.'s RNNencdec: no attention. The decoder reads one fixed
/// context at every step (DecoderImpl::prepare puts it in place of the encoder states, as the
/// one source position there is); this score gives that position weight 1 and has no
/// parameters, so every decoding and training path serves the baseline unchanged.
class NoAttention : public ScoreFunction {
 public:
  explicit NoAttention(const ScoreDimensions& dims);
  static ScoreMultiplyAdds multiply_adds(const ScoreDimensions& dims);
  torch::Tensor keys(const torch::Tensor& encoder_states) override;
  torch::Tensor scores(const torch::Tensor& keys, const torch::Tensor& query) override;
};

}  // namespace attnscope
