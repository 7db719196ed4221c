#pragma once
// Multi-head scaled dot-product attention (Vaswani et al. 2017), written here rather than taken
// from torch::nn::MultiheadAttention so that every head's weights come out, keys and values can
// be projected once and cached, and masks are explicit.
#include <torch/torch.h>

namespace attnscope {

/// Keys and values projected and split into heads: [B,H,S,D/H] each.
struct KeysValues {
  torch::Tensor keys;
  torch::Tensor values;

  /// These followed by `more` along the positions (a decoder step's new position).
  KeysValues append(const KeysValues& more) const;
  /// Rows `index` [n] of the batch.
  KeysValues select(const torch::Tensor& index) const;
};

struct AttentionOutput {
  torch::Tensor output;   // [B,T,D]
  torch::Tensor weights;  // [B,H,T,S]: each head's softmax, before dropout; 0 where masked
};

class MultiHeadAttentionImpl : public torch::nn::Module {
 public:
  MultiHeadAttentionImpl(int64_t model_size, int64_t heads, double dropout);

  /// The keys and values of `memory` [B,S,D].
  KeysValues keys_values(const torch::Tensor& memory);
  /// `input` [B,T,D] attending over `memory` (keys_values() of it). `mask` is true where a query
  /// may attend: [B,1,1,S] (padding), [1,1,T,S] (causal) or anything broadcast to [B,H,T,S];
  /// undefined: everywhere. Every query needs one position it may attend.
  AttentionOutput forward(const torch::Tensor& input, const KeysValues& memory,
                          const torch::Tensor& mask = {});

  int64_t heads() const { return heads_; }

 private:
  // [B,T,D] -> [B,H,T,D/H]
  torch::Tensor split_heads(const torch::Tensor& x) const;

  int64_t heads_;
  double dropout_;
  torch::nn::Linear query_{nullptr}, key_{nullptr}, value_{nullptr}, output_{nullptr};
};
TORCH_MODULE(MultiHeadAttention);

}  // namespace attnscope
