#include "model/score/no_attention.h"

namespace attnscope {

NoAttention::NoAttention(const ScoreDimensions&) {}

// Nothing to compare with the query: keys without features, one row per source position.
torch::Tensor NoAttention::keys(const torch::Tensor& encoder_states) {
  return torch::zeros({encoder_states.size(0), encoder_states.size(1), 0});
}

// Equal scores: the softmax over the one position of the fixed context gives it weight 1.
torch::Tensor NoAttention::scores(const torch::Tensor& keys, const torch::Tensor&) {
  return torch::zeros({keys.size(0), keys.size(1)});
}

ScoreMultiplyAdds NoAttention::multiply_adds(const ScoreDimensions&) { return {0, 0, 0}; }

}  // namespace attnscope
