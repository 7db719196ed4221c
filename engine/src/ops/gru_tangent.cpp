#include "ops/gru_tangent.h"

namespace attnscope {

torch::Tensor gru_cell_tangent(const torch::Tensor& input_gates, const torch::Tensor& hidden_gates,
                               const torch::Tensor& h, const torch::Tensor& d_input_gates,
                               const torch::Tensor& d_hidden_gates, const torch::Tensor& d_h) {
  const int64_t H = h.size(-1);
  // The primal values, as gru_cell computes them: r, z = σ(gᵢ + gₕ); n = tanh(gᵢⁿ + r ⊙ gₕⁿ).
  const torch::Tensor reset_update =
      torch::sigmoid(input_gates.narrow(-1, 0, 2 * H) + hidden_gates.narrow(-1, 0, 2 * H));
  const torch::Tensor reset = reset_update.narrow(-1, 0, H);
  const torch::Tensor update = reset_update.narrow(-1, H, H);
  const torch::Tensor hidden_candidate = hidden_gates.narrow(-1, 2 * H, H);
  const torch::Tensor candidate =
      torch::tanh(input_gates.narrow(-1, 2 * H, H) + reset * hidden_candidate);
  // dσ = σ(1 − σ) d(gᵢ + gₕ); dn = (1 − n²)(dgᵢⁿ + dr ⊙ gₕⁿ + r ⊙ dgₕⁿ);
  // h' = n + z ⊙ (h − n): dh' = (1 − z) ⊙ dn + dz ⊙ (h − n) + z ⊙ dh.
  const torch::Tensor d_reset_update = torch::sigmoid_backward(
      d_input_gates.narrow(-1, 0, 2 * H) + d_hidden_gates.narrow(-1, 0, 2 * H), reset_update);
  const torch::Tensor d_reset = d_reset_update.narrow(-1, 0, H);
  const torch::Tensor d_update = d_reset_update.narrow(-1, H, H);
  const torch::Tensor d_candidate =
      torch::tanh_backward(d_input_gates.narrow(-1, 2 * H, H) + d_reset * hidden_candidate +
                               reset * d_hidden_gates.narrow(-1, 2 * H, H),
                           candidate);
  return (1 - update) * d_candidate + d_update * (h - candidate) + update * d_h;
}

}  // namespace attnscope
