#pragma once
#include <torch/torch.h>

#include "attnscope/model_config.h"
#include "model/decoder.h"
#include "model/encoder.h"
#include "model/trainable_model.h"

namespace attnscope {

struct EncodedBatch {
  DecoderContext context;
  torch::Tensor initial_state;  // [B,H]
};

/// The encoder-decoder. Parameter names ("encoder.rnn.weight_ih_l0", ...) are the checkpoint's.
class Seq2SeqImpl : public TrainableModel {
 public:
  explicit Seq2SeqImpl(const ModelConfig& config);

  /// source [B,S] padded with kPad, lengths [B] int64.
  EncodedBatch encode(const torch::Tensor& source, const torch::Tensor& lengths);
  /// The same from source embeddings [B,S,E] (see EncoderImpl::forward_embedded).
  EncodedBatch encode_embedded(const torch::Tensor& embedded, const torch::Tensor& lengths);
  /// The source embeddings [B,S,E] of token ids [B,S].
  torch::Tensor embed_source(const torch::Tensor& source) { return encoder_->embed(source); }
  /// See DecoderImpl::step(): `weights`, when given, replace the model's attention.
  DecoderStep step(const DecoderContext& context, const torch::Tensor& state,
                   const torch::Tensor& previous_tokens, const torch::Tensor& weights = {}) {
    return decoder_->step(context, state, previous_tokens, weights);
  }
  Encoder& encoder() { return encoder_; }
  Decoder& decoder() { return decoder_; }
  const ModelConfig& config() const override { return config_; }
  /// Teacher forcing: target_inputs [B,T] (starting with <s>) -> logits [B,T,V].
  torch::Tensor forward(const torch::Tensor& source, const torch::Tensor& lengths,
                        const torch::Tensor& target_inputs, torch::Tensor* attention = nullptr);

  /// Teacher forcing's summed cross-entropy: see DecoderImpl::loss().
  torch::Tensor loss(const torch::Tensor& source, const torch::Tensor& lengths,
                     const torch::Tensor& target_inputs, const torch::Tensor& expected,
                     double label_smoothing) override;
  /// False for the baseline (score "none"): its steps' attention is not over the source.
  bool has_attention() const;
  /// See DecoderImpl::prepare_inference(): for models that only decode from now on.
  void prepare_inference(OutputWeights output = OutputWeights::kAsStored) {
    decoder_->prepare_inference(output);
  }

 private:
  ModelConfig config_;
  Encoder encoder_{nullptr};
  Decoder decoder_{nullptr};
};
TORCH_MODULE(Seq2Seq);

/// mask[b,s] = s < lengths[b]
torch::Tensor length_mask(const torch::Tensor& lengths, int64_t max_length);

}  // namespace attnscope
