#pragma once
#include <torch/torch.h>

#include "model/score/score_registry.h"

namespace attnscope {

/// Attention over all encoder states with a pluggable score function. Masked positions get
/// −∞ before the softmax, so padding receives exactly zero weight.
class AttentionImpl : public torch::nn::Module {
 public:
  AttentionImpl(const std::string& score_name, const ScoreDimensions& dims);
  torch::Tensor keys(const torch::Tensor& encoder_states) { return score_->keys(encoder_states); }
  /// The keys' derivative along tangents of the encoder states (ScoreFunction::keys_tangent).
  torch::Tensor keys_tangent(const torch::Tensor& encoder_states,
                             const torch::Tensor& d_encoder_states) {
    return score_->keys_tangent(encoder_states, d_encoder_states);
  }
  /// weights [B,S]: softmax over positions where mask [B,S] is true.
  torch::Tensor weights(const torch::Tensor& keys, const torch::Tensor& mask,
                        const torch::Tensor& query);
  /// The same for keys that every step of a teacher-forced run reads.
  torch::Tensor weights(SharedStepInput& keys, const torch::Tensor& mask,
                        const torch::Tensor& query);

 private:
  std::shared_ptr<ScoreFunction> score_;
};
TORCH_MODULE(Attention);

}  // namespace attnscope
