#include "model/seq2seq.h"

#include "attnscope/score_functions.h"

namespace attnscope {

Seq2SeqImpl::Seq2SeqImpl(const ModelConfig& config) : config_(config) {
  encoder_ = register_module("encoder", Encoder(config));
  decoder_ = register_module("decoder", Decoder(config));
}

torch::Tensor length_mask(const torch::Tensor& lengths, int64_t max_length) {
  return torch::arange(max_length, torch::kLong).unsqueeze(0) < lengths.unsqueeze(1);
}

EncodedBatch Seq2SeqImpl::encode(const torch::Tensor& source, const torch::Tensor& lengths) {
  return encode_embedded(encoder_->embed(source), lengths);
}

EncodedBatch Seq2SeqImpl::encode_embedded(const torch::Tensor& embedded,
                                          const torch::Tensor& lengths) {
  EncoderOutput encoded = encoder_->forward_embedded(embedded, lengths);
  DecoderContext context =
      decoder_->prepare(encoded.states, length_mask(lengths, embedded.size(1)));
  return {std::move(context), encoded.initial_state};
}

torch::Tensor Seq2SeqImpl::forward(const torch::Tensor& source, const torch::Tensor& lengths,
                                   const torch::Tensor& target_inputs, torch::Tensor* attention) {
  EncodedBatch encoded = encode(source, lengths);
  return decoder_->forward(encoded.context, encoded.initial_state, target_inputs, attention);
}

torch::Tensor Seq2SeqImpl::loss(const torch::Tensor& source, const torch::Tensor& lengths,
                                const torch::Tensor& target_inputs, const torch::Tensor& expected,
                                double label_smoothing) {
  EncodedBatch encoded = encode(source, lengths);
  return decoder_->loss(encoded.context, encoded.initial_state, target_inputs, expected,
                        label_smoothing);
}

bool Seq2SeqImpl::has_attention() const { return attnscope::has_attention(config_.score); }

}  // namespace attnscope
