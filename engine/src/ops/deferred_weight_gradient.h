#pragma once
// Weight gradients of a recurrence's per-step products, made as one product after backward.
//
// Why: a recurrence multiplies its weight by a small input at every step (h_{t-1} W_hᵀ, with
// the batch share, ~32 rows, as the inner dimension of the weight's gradient). Autograd makes
// one weight-gradient product per step, which ran at 45 GFLOP/s here; the same arithmetic as
// one product over all steps ran at 79. While a DeferWeightGradients is alive on a thread,
// recurrent_product() leaves the weight out of autograd, keeps each step's input and, through
// a hook, its output gradient; add_deferred_gradients() then makes the one product per weight.
#include <torch/torch.h>

#include <memory>
#include <vector>

namespace attnscope {

/// bias + input · weightᵀ (no bias when it is undefined) in the thread's precision
/// (mixed_precision.h), differentiable in all three; see above for what changes while a
/// DeferWeightGradients is alive on this thread.
torch::Tensor recurrent_product(const torch::Tensor& input, const torch::Tensor& weight,
                                const torch::Tensor& bias);

/// Scope of deferral on the calling thread (one at a time).
class DeferWeightGradients {
 public:
  DeferWeightGradients();
  ~DeferWeightGradients();
  DeferWeightGradients(const DeferWeightGradients&) = delete;
  DeferWeightGradients& operator=(const DeferWeightGradients&) = delete;

  /// After backward through everything made in this scope: adds each deferred weight's
  /// gradient to gradients[i] where parameters[i] is that weight (sets it when undefined).
  void add_deferred_gradients(const std::vector<torch::Tensor>& parameters,
                              std::vector<torch::Tensor>& gradients);

  struct Weight;  // one weight's steps: inputs and output gradients

 private:
  std::vector<std::shared_ptr<Weight>> weights_;
};

}  // namespace attnscope
