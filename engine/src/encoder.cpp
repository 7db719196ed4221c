#include "encoder.h"

#include "attnscope/vocabulary.h"
#include "dropout.h"
#include "gru_math.h"

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
  if (source.size(0) == 1 && !is_training() && !torch::GradMode::is_enabled())
    return forward_single(source);
  namespace rnn = torch::nn::utils::rnn;
  const torch::Tensor embedded = apply_dropout(embedding_(source), dropout_, is_training());
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

torch::Tensor EncoderImpl::run_direction(const torch::Tensor& embedded, bool reverse,
                                         torch::Tensor* last) {
  const std::string suffix = reverse ? "_l0_reverse" : "_l0";
  const auto& params = rnn_->named_parameters();
  const torch::Tensor input_gates =
      torch::addmm(params["bias_ih" + suffix], embedded, params["weight_ih" + suffix].t());
  const torch::Tensor& hidden_weight = params["weight_hh" + suffix];
  const torch::Tensor& hidden_bias = params["bias_hh" + suffix];
  const int64_t length = embedded.size(0);
  torch::Tensor h = torch::zeros({hidden_weight.size(1)});
  std::vector<torch::Tensor> states(static_cast<size_t>(length));
  for (int64_t i = 0; i < length; ++i) {
    const int64_t t = reverse ? length - 1 - i : i;
    h = gru_vector_update(input_gates[t], torch::addmv(hidden_bias, hidden_weight, h), h);
    states[static_cast<size_t>(t)] = h;
  }
  *last = h;
  return torch::stack(states);
}

EncoderOutput EncoderImpl::forward_single(const torch::Tensor& source) {
  const torch::Tensor embedded = embedding_(source[0]);  // [S,E]
  torch::Tensor forward_last, backward_last;
  const torch::Tensor forward_states = run_direction(embedded, false, &forward_last);
  const torch::Tensor backward_states = run_direction(embedded, true, &backward_last);
  const torch::Tensor states = torch::cat({forward_states, backward_states}, 1).unsqueeze(0);
  const torch::Tensor initial =
      torch::tanh(bridge_(torch::cat({forward_last, backward_last}).unsqueeze(0)));
  return {states, initial};
}

}  // namespace attnscope
