#include "model/transformer_decoder_layer.h"

#include "ops/dropout.h"

namespace attnscope {
TransformerDecoderLayerImpl::TransformerDecoderLayerImpl(const ModelConfig& config)
    : dropout_(config.dropout) {
  const int64_t size = config.embedding;
  self_attention_norm_ = register_module("self_attention_norm",
                                         torch::nn::LayerNorm(torch::nn::LayerNormOptions({size})));
  self_attention_ =
      register_module("self_attention", MultiHeadAttention(size, config.heads, config.dropout));
  cross_attention_norm_ = register_module(
      "cross_attention_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({size})));
  cross_attention_ =
      register_module("cross_attention", MultiHeadAttention(size, config.heads, config.dropout));
  feed_forward_norm_ = register_module("feed_forward_norm",
                                       torch::nn::LayerNorm(torch::nn::LayerNormOptions({size})));
  feed_forward_ =
      register_module("feed_forward", FeedForward(size, config.feed_forward, config.dropout));
}

DecoderLayerOutput TransformerDecoderLayerImpl::forward(const torch::Tensor& x,
                                                        const KeysValues& past,
                                                        const KeysValues& memory,
                                                        const torch::Tensor& causal_mask,
                                                        const torch::Tensor& source_mask) {
  DecoderLayerOutput out;
  const torch::Tensor normed = self_attention_norm_(x);
  out.past = past.append(self_attention_->keys_values(normed));
  AttentionOutput self = self_attention_(normed, out.past, causal_mask);
  torch::Tensor states = x + apply_dropout(self.output, dropout_, is_training());
  AttentionOutput cross = cross_attention_(cross_attention_norm_(states), memory, source_mask);
  states = states + apply_dropout(cross.output, dropout_, is_training());
  states =
      states + apply_dropout(feed_forward_(feed_forward_norm_(states)), dropout_, is_training());
  out.states = std::move(states);
  out.self_attention = std::move(self.weights);
  out.cross_attention = std::move(cross.weights);
  return out;
}

}  // namespace attnscope
