#include "model/score/location_score.h"

#include "ops/deferred_weight_gradient.h"

namespace attnscope {

LocationScore::LocationScore(const ScoreDimensions& dims) {
  positions_ = register_module("positions", torch::nn::Linear(torch::nn::LinearOptions(
                                                dims.query_size, dims.max_positions)));
}

// Content-free: the keys only carry the source length.
torch::Tensor LocationScore::keys(const torch::Tensor& encoder_states) { return encoder_states; }

torch::Tensor LocationScore::scores(const torch::Tensor& keys, const torch::Tensor& query) {
  const int64_t length = keys.size(1);
  TORCH_CHECK(length <= positions_->options.out_features(), "source of ", length,
              " tokens is longer than the location score's ", positions_->options.out_features(),
              " positions");
  // Once per decoder step: the weight gradient is deferred (see deferred_weight_gradient.h).
  return recurrent_product(query, positions_->weight, positions_->bias).narrow(1, 0, length);
}

ScoreMultiplyAdds LocationScore::multiply_adds(const ScoreDimensions& d) {
  // One product W s per step; the source content is never read.
  return {0, d.query_size * d.max_positions, 0};
}

}  // namespace attnscope
