#include "score/dot_score.h"

namespace attnscope {

DotScore::DotScore(const ScoreDimensions&) {}

torch::Tensor DotScore::keys(const torch::Tensor& encoder_states) {
  return sum_directions(encoder_states);
}

torch::Tensor DotScore::scores(const torch::Tensor& keys, const torch::Tensor& query) {
  return batched_dot(keys, query);
}

}  // namespace attnscope
