#pragma once
#include "model/score/score_function.h"

namespace attnscope {

/// Bahdanau's additive (concat) score vᵀtanh(W₁h + W₂s), W₁: A × 2H, W₂: A × H, v: A.
class AdditiveScore : public ScoreFunction {
 public:
  explicit AdditiveScore(const ScoreDimensions& dims);
  static ScoreMultiplyAdds multiply_adds(const ScoreDimensions& dims);
  torch::Tensor keys(const torch::Tensor& encoder_states) override;
  torch::Tensor scores(const torch::Tensor& keys, const torch::Tensor& query) override;
  torch::Tensor step_scores(SharedStepInput& keys, const torch::Tensor& query) override;

 private:
  torch::nn::Linear key_weight_{nullptr};    // W₁
  torch::nn::Linear query_weight_{nullptr};  // W₂
  torch::nn::Linear vector_{nullptr};        // v
};

}  // namespace attnscope
