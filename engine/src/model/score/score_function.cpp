#include "model/score/score_function.h"

namespace attnscope {

torch::Tensor sum_directions(const torch::Tensor& encoder_states) {
  const int64_t half = encoder_states.size(-1) / 2;
  return encoder_states.narrow(-1, 0, half) + encoder_states.narrow(-1, half, half);
}

torch::Tensor batched_dot(const torch::Tensor& keys, const torch::Tensor& query) {
  return torch::bmm(keys, query.unsqueeze(2)).squeeze(2);
}

}  // namespace attnscope
