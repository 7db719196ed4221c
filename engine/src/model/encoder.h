#pragma once
#include <torch/torch.h>

#include "attnscope/model_config.h"

namespace attnscope {

struct EncoderOutput {
  torch::Tensor states;         // [B,S,2H], zeros at padding
  torch::Tensor initial_state;  // [B,H], the decoder's start state from the bridge
};

/// forward_embedded() of one sentence's points with, for every source position i, the
/// derivative of the outputs along `direction` at position i alone: what integrated gradients
/// needs (see explain/gradient_model.cpp).
struct EncoderTangents {
  torch::Tensor states;           // [B,S,2H]
  torch::Tensor initial_state;    // [B,H]
  torch::Tensor d_states;         // [S,B,S,2H]: [i] is the derivative along position i's direction
  torch::Tensor d_initial_state;  // [S,B,H]
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
  /// forward_embedded() without autograd of B points of one sentence [B,S,E] (no padding), with
  /// the tangents along `direction` [S,E], one source position at a time. Not in training.
  EncoderTangents forward_tangents(const torch::Tensor& embedded, const torch::Tensor& direction);
  /// Bytes of weights encoding one sentence of `source_length` tokens reads (batch 1, float32):
  /// each direction's input weights once, its hidden weights at every position, the bridge.
  /// (Its hidden weights in half precision, as the decoder's, halved those bytes but did not
  /// shorten the time: the per-position products are too small to be bound by memory.)
  int64_t bytes_read(int64_t source_length) const;

 private:
  // forward() for one sentence without autograd: no packing, and matrix-vector products for
  // the recurrent part (a one-row matrix product costs several times more on this BLAS).
  EncoderOutput forward_single(const torch::Tensor& embedded);
  torch::Tensor run_direction(const torch::Tensor& embedded, bool reverse, torch::Tensor* last);
  // One direction over a batch [B,S,E]; `real` [B,S] marks the positions within each sentence
  // (undefined when no sentence is padded). Returns the states [B,S,H], the last one in *last.
  torch::Tensor run_batch_direction(const torch::Tensor& embedded, const torch::Tensor& real,
                                    bool reverse, torch::Tensor* last);

  // One direction of forward_tangents(): the states [B,S,H] and their tangents [S,B,S,H]; the
  // last state [B,H] and its tangents [S,B,H].
  void run_direction_tangents(const torch::Tensor& embedded, const torch::Tensor& direction,
                              bool reverse, torch::Tensor* states, torch::Tensor* d_states,
                              torch::Tensor* last, torch::Tensor* d_last);

  torch::nn::Embedding embedding_{nullptr};
  torch::nn::GRU rnn_{nullptr};
  torch::nn::Linear bridge_{nullptr};
  double dropout_;
};
TORCH_MODULE(Encoder);

}  // namespace attnscope
