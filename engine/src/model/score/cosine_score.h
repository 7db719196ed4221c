#pragma once
#include "model/score/score_function.h"

namespace attnscope {

/// Content-based score in the manner of Graves' Neural Turing Machines: γ · cos(s, h), with h
/// the sum of the encoder's two directions and γ a learned sharpness (a scalar).
class CosineScore : public ScoreFunction {
 public:
  explicit CosineScore(const ScoreDimensions& dims);
  static ScoreMultiplyAdds multiply_adds(const ScoreDimensions& dims);
  torch::Tensor keys(const torch::Tensor& encoder_states) override;
  torch::Tensor keys_tangent(const torch::Tensor& encoder_states,
                             const torch::Tensor& d_encoder_states) override;
  torch::Tensor scores(const torch::Tensor& keys, const torch::Tensor& query) override;

 private:
  torch::Tensor sharpness_;
};

}  // namespace attnscope
