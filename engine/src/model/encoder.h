#pragma once
#include <torch/torch.h>

#include "attnscope/model_config.h"

namespace attnscope {

struct EncoderOutput {
  torch::Tensor states;         // [B,S,2H], zeros at padding
  torch::Tensor initial_state;  // [B,H], the decoder's start state from the bridge
};

/// Source embedding + bidirectional GRU + bridge tanh(W [h→; h←]). The GRU is torch's module
/// (its parameters and their names), run by the engine's own loops.
class EncoderImpl : public torch::nn::Module {
 public:
  explicit EncoderImpl(const ModelConfig& config);
  /// source [B,S] token ids, lengths [B] (int64, on CPU).
  EncoderOutput forward(const torch::Tensor& source, const torch::Tensor& lengths);
  /// The source embeddings [B,S,E] of token ids [B,S].
  torch::Tensor embed(const torch::Tensor& source) { return embedding_(source); }
  /// forward() from embeddings [B,S,E] the caller made (attribution differentiates with respect
  /// to them, or reads other points than the tokens' own, such as an all-zero baseline).
  EncoderOutput forward_embedded(const torch::Tensor& embedded, const torch::Tensor& lengths);

 private:
  // forward() for one sentence without autograd: no packing, and matrix-vector products for
  // the recurrent part (a one-row matrix product costs several times more on this BLAS).
  EncoderOutput forward_single(const torch::Tensor& embedded);
  torch::Tensor run_direction(const torch::Tensor& embedded, bool reverse, torch::Tensor* last);
  // One direction over a batch [B,S,E]; `real` [B,S] marks the positions within each sentence
  // (undefined when no sentence is padded). Returns the states [B,S,H], the last one in *last.
  torch::Tensor run_batch_direction(const torch::Tensor& embedded, const torch::Tensor& real,
                                    bool reverse, torch::Tensor* last);

  torch::nn::Embedding embedding_{nullptr};
  torch::nn::GRU rnn_{nullptr};
  torch::nn::Linear bridge_{nullptr};
  double dropout_;
};
TORCH_MODULE(Encoder);

}  // namespace attnscope
