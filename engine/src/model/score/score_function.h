#pragma once
// The interface every attention score function implements. The registry (score_registry.h)
// builds them by name; adding a seventh is one class in a file of its own plus its registration.
#include <torch/torch.h>

#include "attnscope/model_config.h"
#include "ops/shared_step_input.h"

namespace attnscope {

/// Sizes a score function may need. The encoder is bidirectional, so its states have
/// 2 * query_size features while the decoder state (the query) has query_size.
struct ScoreDimensions {
  int64_t key_size = 0;    // encoder state: 2H
  int64_t query_size = 0;  // decoder state: H
  int64_t attention_size = 0;
  int64_t max_positions = 0;  // longest source, for the location score
};

/// The sizes a model of this shape gives its score function.
inline ScoreDimensions score_dimensions(const ModelConfig& config) {
  return {2 * config.hidden, config.hidden, config.attention, config.max_source_length};
}

/// Multiply-adds of one forward pass of a score function, for the benchmark's FLOP count:
/// once per source position (keys), once per target step (query), per step and position.
struct ScoreMultiplyAdds {
  int64_t per_source = 0;
  int64_t per_target = 0;
  int64_t per_pair = 0;
};

class ScoreFunction : public torch::nn::Module {
 public:
  /// Per-source work done once before decoding: encoder states [B,S,2H] -> keys [B,S,K].
  virtual torch::Tensor keys(const torch::Tensor& encoder_states) = 0;
  /// The keys' derivative [N,B,S,K] at encoder states [B,S,2H] along N tangents of them
  /// [N,B,S,2H] (integrated gradients pushes tangents forward through the model). This default
  /// holds for keys linear in the states, as all but cosine's are: their derivative is the keys of
  /// the tangent. A score function with other keys overrides it; the test comparing integrated
  /// gradients' two computations for every registered score function fails until it does.
  virtual torch::Tensor keys_tangent(const torch::Tensor& encoder_states,
                                     const torch::Tensor& d_encoder_states) {
    (void)encoder_states;
    return keys(d_encoder_states);
  }
  /// Unnormalised scores [B,S] of keys [B,S,K] against decoder states [B,H]. The caller masks
  /// padding and applies the softmax.
  virtual torch::Tensor scores(const torch::Tensor& keys, const torch::Tensor& query) = 0;
  /// The same for keys that every step of a teacher-forced run reads; a score function may
  /// override it to let the steps sum the keys' gradient (see shared_step_input.h).
  virtual torch::Tensor step_scores(SharedStepInput& keys, const torch::Tensor& query) {
    return scores(keys.value(), query);
  }
};

/// Sum of the forward and backward halves of bidirectional encoder states [.., 2H] -> [.., H]:
/// the parameter-free way dot, scaled_dot and cosine bring keys to the query's size.
torch::Tensor sum_directions(const torch::Tensor& encoder_states);

/// scores[b,s] = keys[b,s,:] · query[b,:]
torch::Tensor batched_dot(const torch::Tensor& keys, const torch::Tensor& query);

}  // namespace attnscope
