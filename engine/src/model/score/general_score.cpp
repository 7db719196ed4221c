#include "model/score/general_score.h"

#include "ops/mixed_precision.h"

namespace attnscope {

GeneralScore::GeneralScore(const ScoreDimensions& dims) {
  weight_ = register_module(
      "weight",
      torch::nn::Linear(torch::nn::LinearOptions(dims.key_size, dims.query_size).bias(false)));
}

// sᵀ(Wh): W h is computed once per source, so each step costs one dot product per position.
torch::Tensor GeneralScore::keys(const torch::Tensor& encoder_states) {
  return mixed_linear(encoder_states, weight_->weight, {});
}

torch::Tensor GeneralScore::scores(const torch::Tensor& keys, const torch::Tensor& query) {
  return batched_dot(keys, query);
}

ScoreMultiplyAdds GeneralScore::multiply_adds(const ScoreDimensions& d) {
  // Keys Wh once per source position, then a dot product per step and position.
  return {d.key_size * d.query_size, 0, d.query_size};
}

}  // namespace attnscope
