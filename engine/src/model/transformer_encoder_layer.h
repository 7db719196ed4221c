#pragma once
#include <torch/torch.h>

#include "attnscope/model_config.h"
#include "model/feed_forward.h"
#include "model/multi_head_attention.h"

namespace attnscope {

struct EncoderLayerOutput {
  torch::Tensor states;          // [B,S,D]
  torch::Tensor self_attention;  // [B,H,S,S]
};

/// One pre-norm Transformer encoder layer: x + SelfAttention(norm(x)), then x + FFN(norm(x)).
class TransformerEncoderLayerImpl : public torch::nn::Module {
 public:
  explicit TransformerEncoderLayerImpl(const ModelConfig& config);
  /// x [B,S,D]; source_mask [B,1,1,S], true at real tokens.
  EncoderLayerOutput forward(const torch::Tensor& x, const torch::Tensor& source_mask);

 private:
  double dropout_;
  torch::nn::LayerNorm self_attention_norm_{nullptr}, feed_forward_norm_{nullptr};
  MultiHeadAttention self_attention_{nullptr};
  FeedForward feed_forward_{nullptr};
};
TORCH_MODULE(TransformerEncoderLayer);

}  // namespace attnscope
