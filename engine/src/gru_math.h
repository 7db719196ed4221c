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

/// The same update for a batch: input_gates and hidden_gates [B,3H], h [B,H].
inline torch::Tensor gru_batch_update(const torch::Tensor& input_gates,
                                      const torch::Tensor& hidden_gates, const torch::Tensor& h) {
  const auto gi = input_gates.chunk(3, 1);
  const auto gh = hidden_gates.chunk(3, 1);
  const torch::Tensor reset = torch::sigmoid(gi[0] + gh[0]);
  const torch::Tensor update = torch::sigmoid(gi[1] + gh[1]);
  const torch::Tensor candidate = torch::tanh(gi[2] + reset * gh[2]);
  return candidate + update * (h - candidate);  // (1 − z) n + z h
}

}  // namespace attnscope
