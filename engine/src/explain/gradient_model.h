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

/// Integrated gradients' sum along a path: log_probs [K,T] as above, and attribution [T,S]:
/// Σ_k weight[k] · (∂ log_probs[k,t] / ∂ point k at position i) · direction[i].
struct PathGradients {
  torch::Tensor log_probs;
  torch::Tensor attribution;
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
  /// gradients() read along `direction` [S,E], one source position at a time. A model may
  /// compute it without the full gradients; this default contracts them.
  virtual PathGradients path_gradients(const torch::Tensor& points, const torch::Tensor& weights,
                                       const std::vector<int64_t>& target,
                                       const torch::Tensor& direction) {
    TargetGradients g = gradients(points, weights, target);
    return {g.log_probs, (g.weighted_sum * direction.unsqueeze(0)).sum(-1)};
  }
};

/// The gradient model of `model`, or nullptr with *why_not set to one line naming what is
/// missing (a TorchScript module without embed() or encode_embedded()).
std::unique_ptr<GradientModel> gradient_model_of(StepModel& model, std::string* why_not);

}  // namespace attnscope
