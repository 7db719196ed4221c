#include "model/transformer_encoder_layer.h"

#include "ops/dropout.h"

namespace attnscope {

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(const ModelConfig& config)
    : dropout_(config.dropout) {
  const int64_t size = config.embedding;
  self_attention_norm_ = register_module("self_attention_norm",
                                         torch::nn::LayerNorm(torch::nn::LayerNormOptions({size})));
  self_attention_ =
      register_module("self_attention", MultiHeadAttention(size, config.heads, config.dropout));
  feed_forward_norm_ = register_module("feed_forward_norm",
                                       torch::nn::LayerNorm(torch::nn::LayerNormOptions({size})));
  feed_forward_ =
      register_module("feed_forward", FeedForward(size, config.feed_forward, config.dropout));
}

EncoderLayerOutput TransformerEncoderLayerImpl::forward(const torch::Tensor& x,
                                                        const torch::Tensor& source_mask) {
  const torch::Tensor normed = self_attention_norm_(x);
  AttentionOutput attended =
      self_attention_(normed, self_attention_->keys_values(normed), source_mask);
  torch::Tensor states = x + apply_dropout(attended.output, dropout_, is_training());
  states =
      states + apply_dropout(feed_forward_(feed_forward_norm_(states)), dropout_, is_training());
  return {states, std::move(attended.weights)};
}

}  // namespace attnscope
