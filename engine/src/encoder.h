#pragma once
#include <torch/torch.h>

#include "attnscope/model_config.h"

namespace attnscope {

struct EncoderOutput {
  torch::Tensor states;         // [B,S,2H], zeros at padding
  torch::Tensor initial_state;  // [B,H], the decoder's start state from the bridge
};

/// Source embedding + bidirectional GRU over packed sequences + bridge tanh(W [h→; h←]).
class EncoderImpl : public torch::nn::Module {
 public:
  explicit EncoderImpl(const ModelConfig& config);
  /// source [B,S] token ids, lengths [B] (int64, on CPU).
  EncoderOutput forward(const torch::Tensor& source, const torch::Tensor& lengths);

 private:
  // forward() for one sentence without autograd: no packing, and matrix-vector products for
  // the recurrent part (a one-row matrix product costs several times more on this BLAS).
  EncoderOutput forward_single(const torch::Tensor& source);
  torch::Tensor run_direction(const torch::Tensor& embedded, bool reverse, torch::Tensor* last);

  torch::nn::Embedding embedding_{nullptr};
  torch::nn::GRU rnn_{nullptr};
  torch::nn::Linear bridge_{nullptr};
  double dropout_;
};
TORCH_MODULE(Encoder);

}  // namespace attnscope
