#pragma once
// The GRU state update on one sentence's vectors (torch's gate order r, z, n), in as few tensor
// operations as possible: at batch size 1 each operation's fixed cost outweighs its arithmetic.
#include <torch/torch.h>

namespace attnscope {

/// h' from input gates W_i x + b_i [3H], hidden gates W_h h + b_h [3H] and h [H].
inline torch::Tensor gru_vector_update(const torch::Tensor& input_gates,
                                       const torch::Tensor& hidden_gates, const torch::Tensor& h) {
  const int64_t H = h.size(0);
  const torch::Tensor reset_update =
      torch::sigmoid(input_gates.narrow(0, 0, 2 * H) + hidden_gates.narrow(0, 0, 2 * H));
  const torch::Tensor candidate =
      torch::tanh(torch::addcmul(input_gates.narrow(0, 2 * H, H), reset_update.narrow(0, 0, H),
                                 hidden_gates.narrow(0, 2 * H, H)));
  return torch::lerp(candidate, h, reset_update.narrow(0, H, H));  // (1 − z) n + z h
}

}  // namespace attnscope
