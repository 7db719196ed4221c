#include "encoder.h"

#include "attnscope/vocabulary.h"

namespace attnscope {

EncoderImpl::EncoderImpl(const ModelConfig& config) : dropout_(config.dropout) {
  embedding_ = register_module(
      "embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.source_vocab,
                                                                    config.embedding)
                                            .padding_idx(Vocabulary::kPad)));
  rnn_ = register_module("rnn", torch::nn::GRU(torch::nn::GRUOptions(config.embedding,
                                                                     config.hidden)
                                                   .bidirectional(true)
                                                   .batch_first(true)));
  bridge_ = register_module("bridge", torch::nn::Linear(2 * config.hidden, config.hidden));
}

EncoderOutput EncoderImpl::forward(const torch::Tensor& source, const torch::Tensor& lengths) {
  namespace rnn = torch::nn::utils::rnn;
  const torch::Tensor embedded = torch::dropout(embedding_(source), dropout_, is_training());
  // Packing keeps padding out of both directions, so a sentence's states do not depend on the
  // other sentences of its batch.
  const auto packed = rnn::pack_padded_sequence(embedded, lengths, /*batch_first=*/true,
                                                /*enforce_sorted=*/false);
  auto [packed_states, last] = rnn_->forward_with_packed_input(packed);
  auto [states, unused_lengths] =
      rnn::pad_packed_sequence(packed_states, /*batch_first=*/true, 0.0, source.size(1));
  // last: [2,B,H], the final forward state and the backward state at position 0.
  const torch::Tensor initial =
      torch::tanh(bridge_(torch::cat({last[0], last[1]}, /*dim=*/1)));
  return {states, initial};
}

}  // namespace attnscope
