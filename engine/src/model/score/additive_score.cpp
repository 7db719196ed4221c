#include "model/score/additive_score.h"

#include "ops/deferred_weight_gradient.h"
#include "ops/mixed_precision.h"

namespace attnscope {

AdditiveScore::AdditiveScore(const ScoreDimensions& dims) {
  using torch::nn::Linear;
  using torch::nn::LinearOptions;
  key_weight_ = register_module(
      "key_weight", Linear(LinearOptions(dims.key_size, dims.attention_size).bias(false)));
  query_weight_ = register_module(
      "query_weight", Linear(LinearOptions(dims.query_size, dims.attention_size).bias(false)));
  vector_ = register_module("vector", Linear(LinearOptions(dims.attention_size, 1).bias(false)));
}

torch::Tensor AdditiveScore::keys(const torch::Tensor& encoder_states) {
  return mixed_linear(encoder_states, key_weight_->weight, {});
}

torch::Tensor AdditiveScore::scores(const torch::Tensor& keys, const torch::Tensor& query) {
  // The query's product runs once per decoder step: its weight gradient is deferred.
  const torch::Tensor projected = recurrent_product(query, query_weight_->weight, {});
  const torch::Tensor hidden = torch::tanh(keys + projected.unsqueeze(1));
  return torch::matmul(hidden, vector_->weight.squeeze(0));
}

torch::Tensor AdditiveScore::step_scores(SharedStepInput& keys, const torch::Tensor& query) {
  // The same arithmetic as scores(), with the keys' gradient summed by the steps.
  return keys.additive_scores(recurrent_product(query, query_weight_->weight, {}), vector_->weight);
}

ScoreMultiplyAdds AdditiveScore::multiply_adds(const ScoreDimensions& d) {
  // Keys W₁h once per source position, W₂s once per step, vᵀtanh(.) per step and position.
  return {d.key_size * d.attention_size, d.query_size * d.attention_size, d.attention_size};
}

}  // namespace attnscope
