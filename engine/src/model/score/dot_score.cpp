#include "model/score/dot_score.h"

namespace attnscope {

DotScore::DotScore(const ScoreDimensions&) {}

torch::Tensor DotScore::keys(const torch::Tensor& encoder_states) {
  return sum_directions(encoder_states);
}

torch::Tensor DotScore::scores(const torch::Tensor& keys, const torch::Tensor& query) {
  return batched_dot(keys, query);
}

ScoreMultiplyAdds DotScore::multiply_adds(const ScoreDimensions& d) {
  // The directions are summed, not multiplied: a dot product per step and position.
  return {0, 0, d.query_size};
}

}  // namespace attnscope
