#pragma once
// The output layer and its cross-entropy loss as one autograd function.
//
// Why: at the reference's shape the output layer is ~60% of a training batch. Done as torch's
// linear + cross_entropy it keeps logits, log-probabilities and two gradients as N × V tensors
// (13 MB each for half a batch, fresh pages every time); here one buffer holds the logits,
// becomes the log-probabilities in place and, in backward, the logits' gradient.
//
// And it takes the inputs that many positions share once: the output layer also reads the
// previous target token's embedding, and in a batch of 64 Multi30k sentences only ~40% of the
// positions have a token of their own. Their product with the weight's last columns is made
// once per distinct token, forward and backward: a quarter of the output layer's arithmetic
// at the reference's shape (E = 256 of its 1,024 inputs), cut by more than half.
#include <torch/torch.h>

namespace attnscope {

/// The output layer's input: position n reads [features[n]; shared_rows[row_index[n]]].
struct OutputLayerInput {
  torch::Tensor features;     // [N,D]
  torch::Tensor shared_rows;  // [U,F−D], or undefined when the input is all in `features`
  torch::Tensor row_index;    // [N] int64 into shared_rows, when it is defined
};

/// Σₙ cross-entropy(Wxₙ + b, targets[n]) with label smoothing ε, as
/// torch::nn::functional::cross_entropy(..., label_smoothing ε, reduction sum) computes it:
/// (1 − ε)·(−log pₙ[target]) + ε·mean over the vocabulary of (−log pₙ). weight [V,F], bias [V],
/// targets [N] int64. Differentiable in features, shared_rows, weight and bias; backward runs
/// once per forward (it turns the forward's buffer into the gradient), as in training.
torch::Tensor linear_cross_entropy_sum(const OutputLayerInput& input, const torch::Tensor& weight,
                                       const torch::Tensor& bias, const torch::Tensor& targets,
                                       double label_smoothing);

}  // namespace attnscope
