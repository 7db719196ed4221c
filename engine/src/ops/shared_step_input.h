#pragma once
// A per-sentence tensor that every step of the teacher-forced decoder reads (the attention
// keys, the context's contribution to the GRU gates), with its gradient summed over the steps
// by the steps' own backward instead of by autograd.
//
// Why: autograd gives each step's read its own full-size gradient [B,S,F] and adds them up:
// per step one allocation, one product to make it and one add pass over it. For the context
// gates (F = 3H) and the additive score's tanh these passes were ~10% of a training batch.
// Here the additive score's backward adds its part into one buffer in the same pass that
// computes it, and the weighted sums' parts (each weights ⊗ output gradient) are made at the
// end as one batched product, Σₜ aₜᵀ gₜ. Sums skip the terms of positions with weight or
// score gradient zero (padding), which are zero.
//
// Mechanics: the value enters autograd through one node whose output, a scalar token, every
// step's node takes as an input; autograd runs that node only after all the steps' backward,
// and it passes the summed gradient on to the value's history. One backward per forward, as
// in training: that node hands the sum on and clears it.
#include <torch/torch.h>

#include <memory>

namespace attnscope {

class SharedStepInput {
 public:
  /// value: float [B,S,F] (copied once if not contiguous); it may or may not need a gradient.
  explicit SharedStepInput(const torch::Tensor& value);

  /// The value as given, with its autograd history, for operations other than those below.
  const torch::Tensor& value() const { return value_; }

  /// Σₛ weights[b,s] · value[b,s,:]: weights [B,S] → [B,F]. Differentiable in both.
  torch::Tensor weighted_sum(const torch::Tensor& weights);

  /// Bahdanau's scores vᵀ tanh(value[b,s,:] + query[b,:]): query [B,F], vector [F] → [B,S].
  /// Differentiable in all three.
  torch::Tensor additive_scores(const torch::Tensor& query, const torch::Tensor& vector);

  struct Gradient;  // what the steps' backward leave for the value

 private:
  torch::Tensor value_, detached_;
  torch::Tensor token_;  // undefined when the value needs no gradient
  std::shared_ptr<Gradient> gradient_;
};

}  // namespace attnscope
