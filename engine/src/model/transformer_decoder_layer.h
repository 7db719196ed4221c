#pragma once
#include <torch/torch.h>

#include "attnscope/model_config.h"
#include "model/feed_forward.h"
#include "model/multi_head_attention.h"

namespace attnscope {

struct DecoderLayerOutput {
  torch::Tensor states;  // [B,T,D]
  // The self-attention's keys and values of every position so far, the new ones last: what
  // the next step reads (fairseq's incremental state).
  KeysValues past;
  torch::Tensor self_attention;   // [B,H,T,t]: t positions so far, the T new ones included
  torch::Tensor cross_attention;  // [B,H,T,S]
};

/// One pre-norm Transformer decoder layer: x + SelfAttention(norm(x)) over the positions so far,
/// x + CrossAttention(norm(x)) over the source, x + FFN(norm(x)).
class TransformerDecoderLayerImpl : public torch::nn::Module {
 public:
  explicit TransformerDecoderLayerImpl(const ModelConfig& config);
  /// The cross-attention's keys and values of the encoder's states [B,S,D]: made once per
  /// source, read at every step.
  KeysValues memory(const torch::Tensor& encoded) { return cross_attention_->keys_values(encoded); }
  /// x [B,T,D], the T positions after `past` (undefined: from the start). causal_mask [T,t]
  /// true where a position may attend (undefined: everywhere); source_mask [B,1,1,S].
  DecoderLayerOutput forward(const torch::Tensor& x, const KeysValues& past,
                             const KeysValues& memory, const torch::Tensor& causal_mask,
                             const torch::Tensor& source_mask);

 private:
  double dropout_;
  torch::nn::LayerNorm self_attention_norm_{nullptr}, cross_attention_norm_{nullptr},
      feed_forward_norm_{nullptr};
  MultiHeadAttention self_attention_{nullptr}, cross_attention_{nullptr};
  FeedForward feed_forward_{nullptr};
};
TORCH_MODULE(TransformerDecoderLayer);

}  // namespace attnscope
