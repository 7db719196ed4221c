#pragma once
#include "model/score/score_function.h"

namespace attnscope {

/// Luong's dot score sᵀh. h is the sum of the encoder's two directions, so the score has no
/// parameters at all.
class DotScore : public ScoreFunction {
 public:
  explicit DotScore(const ScoreDimensions& dims);
  static ScoreMultiplyAdds multiply_adds(const ScoreDimensions& dims);
  torch::Tensor keys(const torch::Tensor& encoder_states) override;
  torch::Tensor scores(const torch::Tensor& keys, const torch::Tensor& query) override;
};

}  // namespace attnscope
