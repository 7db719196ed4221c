#include "model/score/scaled_dot_score.h"

#include <cmath>

namespace attnscope {

ScaledDotScore::ScaledDotScore(const ScoreDimensions& dims)
    : scale_(1.0 / std::sqrt(static_cast<double>(dims.query_size))) {}

// Scaling the keys once per source instead of every step's scores gives the same numbers.
torch::Tensor ScaledDotScore::keys(const torch::Tensor& encoder_states) {
  return sum_directions(encoder_states) * scale_;
}

torch::Tensor ScaledDotScore::scores(const torch::Tensor& keys, const torch::Tensor& query) {
  return batched_dot(keys, query);
}

ScoreMultiplyAdds ScaledDotScore::multiply_adds(const ScoreDimensions& d) {
  return {0, 0, d.query_size};  // as dot: the scale is folded into the keys
}

}  // namespace attnscope
