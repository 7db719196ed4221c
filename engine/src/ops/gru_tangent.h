#pragma once
// Forward-mode derivatives (tangents) of the GRU update, for integrated gradients: the
// attribution of every target token to source position i needs the derivative of the encoder's
// states along the direction of position i's embedding. Pushing one tangent per source position
// forward through the encoder costs one batch of S tangents per point of the path, where reverse
// mode would run the encoder once per point and target token (see explain/gradient_model.cpp).
#include <torch/torch.h>

namespace attnscope {

/// The tangent of h' = gru_cell(input_gates, hidden_gates, h) (ops/gru_cell.h) [N,B,H], given
/// the primal values [B,3H], [B,3H], [B,H] and N tangents of each input [N,B,3H], [N,B,3H],
/// [N,B,H]; each tangent row n reads the primal row b of the same b.
torch::Tensor gru_cell_tangent(const torch::Tensor& input_gates, const torch::Tensor& hidden_gates,
                               const torch::Tensor& h, const torch::Tensor& d_input_gates,
                               const torch::Tensor& d_hidden_gates, const torch::Tensor& d_h);

}  // namespace attnscope
