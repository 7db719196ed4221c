#pragma once
// The GRU state update for a batch as one autograd operation.
//
// Why: written with torch operations the update is 13 of them forward and ~20 autograd nodes
// backward, each on a [B,H] tensor small enough that its fixed cost (tens of microseconds in
// the profile) outweighs its arithmetic; training runs it for every encoder and decoder step
// of every worker's share. Here it is one node with the backward written out.
#include <torch/torch.h>

namespace attnscope {

/// h' = (1 − z) ⊙ n + z ⊙ h, with r = σ(gᵢʳ + gₕʳ), z = σ(gᵢᶻ + gₕᶻ), n = tanh(gᵢⁿ + r ⊙ gₕⁿ):
/// torch's GRU (gate order r, z, n) given the input gates W_i x + b_i and the hidden gates
/// W_h h + b_h, both [B,3H], and h [B,H]. Differentiable in all three.
torch::Tensor gru_cell(const torch::Tensor& input_gates, const torch::Tensor& hidden_gates,
                       const torch::Tensor& h);

}  // namespace attnscope
