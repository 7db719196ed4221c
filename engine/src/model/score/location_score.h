#pragma once
#include "model/score/score_function.h"

namespace attnscope {

/// Luong's location-based score: W s gives one score per source position (W: max_positions × H),
/// ignoring the source content; positions past the sentence are masked by the caller.
class LocationScore : public ScoreFunction {
 public:
  explicit LocationScore(const ScoreDimensions& dims);
  static ScoreMultiplyAdds multiply_adds(const ScoreDimensions& dims);
  torch::Tensor keys(const torch::Tensor& encoder_states) override;
  torch::Tensor scores(const torch::Tensor& keys, const torch::Tensor& query) override;

 private:
  torch::nn::Linear positions_{nullptr};
};

}  // namespace attnscope
