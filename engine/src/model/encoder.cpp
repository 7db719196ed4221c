#include "model/encoder.h"

#include "attnscope/vocabulary.h"
#include "ops/deferred_weight_gradient.h"
#include "ops/dropout.h"
#include "ops/gru_cell.h"
#include "ops/gru_math.h"
#include "ops/gru_tangent.h"
#include "ops/mixed_precision.h"

namespace attnscope {

EncoderImpl::EncoderImpl(const ModelConfig& config) : dropout_(config.dropout) {
  embedding_ = register_module(
      "embedding",
      torch::nn::Embedding(torch::nn::EmbeddingOptions(config.source_vocab, config.embedding)
                               .padding_idx(Vocabulary::kPad)));
  rnn_ =
      register_module("rnn", torch::nn::GRU(torch::nn::GRUOptions(config.embedding, config.hidden)
                                                .bidirectional(true)
                                                .batch_first(true)));
  bridge_ = register_module("bridge", torch::nn::Linear(2 * config.hidden, config.hidden));
}

int64_t EncoderImpl::bytes_read(int64_t source_length) const {
  const int64_t E = rnn_->options.input_size(), H = rnn_->options.hidden_size();
  const int64_t S = source_length;
  return (S * E + 2 * (3 * H * E + S * 3 * H * H) + 2 * H * H) * 4;
}

EncoderOutput EncoderImpl::forward(const torch::Tensor& source, const torch::Tensor& lengths) {
  return forward_embedded(embedding_(source), lengths);
}

EncoderOutput EncoderImpl::forward_embedded(const torch::Tensor& embedded_tokens,
                                            const torch::Tensor& lengths) {
  if (embedded_tokens.size(0) == 1 && !is_training() && !torch::GradMode::is_enabled())
    return forward_single(embedded_tokens[0]);
  const torch::Tensor embedded = apply_dropout(embedded_tokens, dropout_, is_training());
  const int64_t S = embedded.size(1);
  // Each sentence's positions past its length are skipped as packing would skip them: the
  // state is carried over unchanged and the output is zero. So a sentence's states do not
  // depend on the other sentences of its batch.
  const torch::Tensor real = torch::arange(S, torch::kLong).unsqueeze(0) < lengths.unsqueeze(1);
  const bool padded = lengths.min().item<int64_t>() < S;
  torch::Tensor forward_last, backward_last;
  const torch::Tensor forward_states =
      run_batch_direction(embedded, padded ? real : torch::Tensor(), false, &forward_last);
  const torch::Tensor backward_states =
      run_batch_direction(embedded, padded ? real : torch::Tensor(), true, &backward_last);
  const torch::Tensor initial =
      torch::tanh(bridge_(torch::cat({forward_last, backward_last}, /*dim=*/1)));
  return {torch::cat({forward_states, backward_states}, 2), initial};
}

torch::Tensor EncoderImpl::run_batch_direction(const torch::Tensor& embedded,
                                               const torch::Tensor& real, bool reverse,
                                               torch::Tensor* last) {
  const std::string suffix = reverse ? "_l0_reverse" : "_l0";
  const auto& params = rnn_->named_parameters();
  // The input's share of the gates for every position in one matrix product, where torch's
  // GRU on packed sequences makes one small product per step.
  const torch::Tensor input_gates =
      mixed_linear(embedded, params["weight_ih" + suffix], params["bias_ih" + suffix]);
  const std::vector<torch::Tensor> step_gates = input_gates.unbind(1);
  const std::vector<torch::Tensor> step_real =
      real.defined() ? real.unsqueeze(2).unbind(1) : std::vector<torch::Tensor>();
  const torch::Tensor& hidden_weight = params["weight_hh" + suffix];
  const torch::Tensor& hidden_bias = params["bias_hh" + suffix];
  const int64_t length = embedded.size(1);
  torch::Tensor h = torch::zeros({embedded.size(0), hidden_weight.size(1)});
  std::vector<torch::Tensor> states(static_cast<size_t>(length));
  for (int64_t i = 0; i < length; ++i) {
    const auto t = static_cast<size_t>(reverse ? length - 1 - i : i);
    const torch::Tensor next =
        gru_cell(step_gates[t], recurrent_product(h, hidden_weight, hidden_bias), h);
    if (step_real.empty()) {
      h = states[t] = next;
    } else {
      states[t] = torch::where(step_real[t], next, 0.0);
      h = torch::where(step_real[t], next, h);
    }
  }
  *last = h;
  return torch::stack(states, 1);
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

EncoderTangents EncoderImpl::forward_tangents(const torch::Tensor& embedded,
                                              const torch::Tensor& direction) {
  TORCH_CHECK(!is_training(), "the encoder's tangents are for a trained model");
  torch::NoGradGuard no_grad;
  EncoderTangents out;
  torch::Tensor forward_states, backward_states, d_forward, d_backward;
  torch::Tensor forward_last, backward_last, d_forward_last, d_backward_last;
  run_direction_tangents(embedded, direction, false, &forward_states, &d_forward, &forward_last,
                         &d_forward_last);
  run_direction_tangents(embedded, direction, true, &backward_states, &d_backward, &backward_last,
                         &d_backward_last);
  out.states = torch::cat({forward_states, backward_states}, 2);
  out.d_states = torch::cat({d_forward, d_backward}, 3);
  out.initial_state = torch::tanh(bridge_(torch::cat({forward_last, backward_last}, 1)));
  // The bridge's bias does not move: d tanh(W u + b) = (1 − tanh²) ⊙ W du.
  out.d_initial_state = torch::tanh_backward(
      torch::matmul(torch::cat({d_forward_last, d_backward_last}, 2), bridge_->weight.t()),
      out.initial_state);
  return out;
}

void EncoderImpl::run_direction_tangents(const torch::Tensor& embedded,
                                         const torch::Tensor& direction, bool reverse,
                                         torch::Tensor* states, torch::Tensor* d_states,
                                         torch::Tensor* last, torch::Tensor* d_last) {
  const std::string suffix = reverse ? "_l0_reverse" : "_l0";
  const auto& params = rnn_->named_parameters();
  const torch::Tensor& input_weight = params["weight_ih" + suffix];
  const torch::Tensor& hidden_weight = params["weight_hh" + suffix];
  const torch::Tensor& hidden_bias = params["bias_hh" + suffix];
  const int64_t B = embedded.size(0), S = embedded.size(1), H = hidden_weight.size(1);
  const torch::Tensor input_gates =
      torch::matmul(embedded, input_weight.t()) + params["bias_ih" + suffix];  // [B,S,3H]
  // A tangent along position i's direction enters the input gates at position i only.
  const torch::Tensor position_gates = torch::matmul(direction, input_weight.t());  // [S,3H]
  torch::Tensor h = torch::zeros({B, H});
  // The tangents of the positions read so far, in the order read: a position's tangent is zero
  // until the recurrence reaches it, so the batch of tangents grows by one each step.
  torch::Tensor d_h = torch::zeros({0, B, H});
  *states = torch::empty({B, S, H});
  *d_states = torch::zeros({S, B, S, H});
  for (int64_t i = 0; i < S; ++i) {
    const int64_t t = reverse ? S - 1 - i : i;
    const torch::Tensor gates = input_gates.select(1, t);
    const torch::Tensor hidden_gates = torch::addmm(hidden_bias, h, hidden_weight.t());
    const torch::Tensor d_input_gates =
        torch::cat({torch::zeros({i, B, 3 * H}), position_gates[t].expand({1, B, 3 * H})});
    const torch::Tensor d_hidden_gates =
        torch::cat({torch::matmul(d_h, hidden_weight.t()), torch::zeros({1, B, 3 * H})});
    d_h = gru_cell_tangent(gates, hidden_gates, h, d_input_gates, d_hidden_gates,
                           torch::cat({d_h, torch::zeros({1, B, H})}));
    h = gru_cell(gates, hidden_gates, h);
    states->select(1, t).copy_(h);
    // Read forward, tangent j is position j's; read backward, position S − 1 − j's.
    if (reverse)
      d_states->narrow(0, t, i + 1).select(2, t).copy_(d_h.flip(0));
    else
      d_states->narrow(0, 0, i + 1).select(2, t).copy_(d_h);
  }
  *last = h;
  *d_last = reverse ? d_h.flip(0) : d_h;
}

EncoderOutput EncoderImpl::forward_single(const torch::Tensor& embedded) {  // [S,E]
  torch::Tensor forward_last, backward_last;
  const torch::Tensor forward_states = run_direction(embedded, false, &forward_last);
  const torch::Tensor backward_states = run_direction(embedded, true, &backward_last);
  const torch::Tensor states = torch::cat({forward_states, backward_states}, 1).unsqueeze(0);
  const torch::Tensor initial =
      torch::tanh(bridge_(torch::cat({forward_last, backward_last}).unsqueeze(0)));
  return {states, initial};
}

}  // namespace attnscope
