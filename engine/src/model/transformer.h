#pragma once
#include <torch/torch.h>

#include <vector>

#include "attnscope/model_config.h"
#include "model/multi_head_attention.h"
#include "model/trainable_model.h"
#include "model/transformer_decoder_layer.h"
#include "model/transformer_encoder_layer.h"

namespace attnscope {

/// What the encoder made of a batch of sources.
struct TransformerEncoding {
  torch::Tensor states;  // [B,S,D], after the final norm
  torch::Tensor mask;    // [B,S], true at real tokens
  // Per layer [B,H,S,S] when asked for (encode's keep_attention); empty otherwise.
  std::vector<torch::Tensor> self_attention;
};

/// What the decoder reads of the sources at every step, made once by decoder_memory().
struct TransformerMemory {
  std::vector<KeysValues> layers;  // per layer: the cross-attention's keys and values
  torch::Tensor mask;              // [B,S], true at real tokens

  /// Rows `index` [n] of the batch.
  TransformerMemory select(const torch::Tensor& index) const;
};

/// The decoder over some positions, the ones before them read from `past`.
struct TransformerDecoding {
  torch::Tensor states;                        // [B,T,D] after the final norm: logits() of them
  std::vector<KeysValues> past;                // per layer: every position's keys and values
  std::vector<torch::Tensor> self_attention;   // per layer [B,H,T,t]
  std::vector<torch::Tensor> cross_attention;  // per layer [B,H,T,S]
};

/// The attention weights of a teacher-forced pass (TransformerImpl::forward).
struct TransformerAttention {
  std::vector<torch::Tensor> encoder;  // per layer [B,H,S,S]
  std::vector<torch::Tensor> decoder;  // per layer [B,H,T,T], zero above the diagonal
  std::vector<torch::Tensor> cross;    // per layer [B,H,T,S]
};

/// The Transformer encoder-decoder (Vaswani et al. 2017) in pre-norm form: each sublayer reads
/// norm(x) and adds its output to x, and the stacks end with a norm. Pre-norm because the
/// residual path then carries the embeddings to the output unchanged in scale, so gradients
/// reach every layer whole from the first step: post-norm's layers need a long warm-up and
/// still diverge easily on the small corpora this app trains on (Xiong et al. 2020, Nguyen and
/// Salazar 2019). Sinusoidal positions (no weights, any length) are added to embeddings scaled
/// by √D. The target embedding is the output layer's matrix; with
/// config.shared_embeddings the source reads it too. Parameter names ("encoder.0.
/// self_attention.query.weight", ...) are the checkpoint's.
class TransformerImpl : public TrainableModel {
 public:
  explicit TransformerImpl(const ModelConfig& config);

  /// source [B,S] padded with kPad, lengths [B] int64.
  TransformerEncoding encode(const torch::Tensor& source, const torch::Tensor& lengths,
                             bool keep_attention = false);
  /// Each decoder layer's cross-attention keys and values of an encoding.
  TransformerMemory decoder_memory(const TransformerEncoding& encoding);
  /// The decoder over inputs [B,T] at positions past_length … past_length + T − 1, reading the
  /// keys and values of the positions before from `past` (empty: from the start). One position
  /// at a time with the previous call's past gives what one call over all positions gives. A
  /// memory of one row serves every row of `inputs` (one source, several hypotheses).
  TransformerDecoding decode(const torch::Tensor& inputs, const TransformerMemory& memory,
                             const std::vector<KeysValues>& past = {});
  /// The logits [..., V] of decoder states [..., D].
  torch::Tensor logits(const torch::Tensor& states);

  /// Teacher forcing: target_inputs [B,T] (starting with <s>) -> log-probabilities [B,T,V];
  /// every layer's attention in *attention when given.
  torch::Tensor forward(const torch::Tensor& source, const torch::Tensor& lengths,
                        const torch::Tensor& target_inputs,
                        TransformerAttention* attention = nullptr);
  /// Teacher forcing's summed label-smoothed cross-entropy of predicting `expected` [B,T] (kPad
  /// where there is nothing to predict), as Seq2SeqImpl::loss() computes it.
  torch::Tensor loss(const torch::Tensor& source, const torch::Tensor& lengths,
                     const torch::Tensor& target_inputs, const torch::Tensor& expected,
                     double label_smoothing) override;

  const ModelConfig& config() const override { return config_; }
  int64_t layers() const { return config_.layers; }
  int64_t heads() const { return config_.heads; }

 private:
  // Token embeddings scaled by √D plus the positions first … first + T − 1, dropout applied.
  torch::Tensor embed(torch::nn::Embedding& table, const torch::Tensor& ids, int64_t first);
  torch::nn::Embedding& source_embedding() {
    return config_.shared_embeddings ? target_embedding_ : source_embedding_;
  }

  ModelConfig config_;
  torch::nn::Embedding source_embedding_{nullptr};  // null with shared embeddings
  torch::nn::Embedding target_embedding_{nullptr};  // also the output matrix
  torch::Tensor output_bias_;
  torch::nn::ModuleList encoder_{nullptr}, decoder_{nullptr};
  std::vector<TransformerEncoderLayer> encoder_layers_;
  std::vector<TransformerDecoderLayer> decoder_layers_;
  torch::nn::LayerNorm encoder_norm_{nullptr}, decoder_norm_{nullptr};
};
TORCH_MODULE(Transformer);

/// The sinusoidal position encodings [count, size] of positions first … first + count − 1.
torch::Tensor sinusoidal_positions(int64_t first, int64_t count, int64_t size);

}  // namespace attnscope
