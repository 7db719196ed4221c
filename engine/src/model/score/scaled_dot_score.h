#pragma once
#include "model/score/score_function.h"

namespace attnscope {

/// Vaswani's scaled dot score sᵀh/√d, d = H, with h the sum of the encoder's two directions.
class ScaledDotScore : public ScoreFunction {
 public:
  explicit ScaledDotScore(const ScoreDimensions& dims);
  static ScoreMultiplyAdds multiply_adds(const ScoreDimensions& dims);
  torch::Tensor keys(const torch::Tensor& encoder_states) override;
  torch::Tensor scores(const torch::Tensor& keys, const torch::Tensor& query) override;

 private:
  double scale_;
};

}  // namespace attnscope
