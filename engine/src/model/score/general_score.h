#pragma once
#include "model/score/score_function.h"

namespace attnscope {

/// Luong's general score sᵀWh with W of size H × 2H, which maps the bidirectional encoder
/// state to the decoder's size.
class GeneralScore : public ScoreFunction {
 public:
  explicit GeneralScore(const ScoreDimensions& dims);
  static ScoreMultiplyAdds multiply_adds(const ScoreDimensions& dims);
  torch::Tensor keys(const torch::Tensor& encoder_states) override;
  torch::Tensor scores(const torch::Tensor& keys, const torch::Tensor& query) override;

 private:
  torch::nn::Linear weight_{nullptr};
};

}  // namespace attnscope
