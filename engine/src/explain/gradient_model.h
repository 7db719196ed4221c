#pragma once
// What gradient attributions need of a model, whichever kind of file it came from: the source's
// embeddings, and the gradients of the target tokens' log-probabilities with respect to
// embeddings given in their place.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "decode/step_model.h"

namespace attnscope {

struct TargetGradients {
  torch::Tensor log_probs;     // [K,T]: log p(target[t] | point k, target[<t])
  torch::Tensor weighted_sum;  // [T,S,E]: Σ_k weight[k] · ∂ log_probs[k,t] / ∂ point k
};

class GradientModel {
 public:
  virtual ~GradientModel() = default;
  /// The source tokens' embeddings [S,E], as the model's encoder reads them.
  virtual torch::Tensor embed(const std::vector<int64_t>& source) = 0;
  /// `points` [K,S,E]: embeddings the encoder reads in place of the source's own; `weights` [K];
  /// `target`: the output token ids, the end token included. Runs with autograd on (the caller
  /// must not be in InferenceMode) and leaves no gradient on the model's parameters.
  virtual TargetGradients gradients(const torch::Tensor& points, const torch::Tensor& weights,
                                    const std::vector<int64_t>& target) = 0;
};

/// The gradient model of `model`, or nullptr with *why_not set to one line naming what is
/// missing (a TorchScript module without embed() or encode_embedded()).
std::unique_ptr<GradientModel> gradient_model_of(StepModel& model, std::string* why_not);

}  // namespace attnscope
