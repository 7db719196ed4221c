#include "decoder.h"

#include <cmath>

#include "attnscope/vocabulary.h"
#include "gru_math.h"

namespace attnscope {

DecoderContext DecoderContext::repeat(int64_t times) const {
  auto expand = [times](const torch::Tensor& t) { return t.repeat_interleave(times, 0); };
  return {expand(states), expand(keys), expand(mask), expand(context_gates)};
}

DecoderImpl::DecoderImpl(const ModelConfig& config) : config_(config) {
  const int64_t E = config.embedding, H = config.hidden;
  embedding_ = register_module(
      "embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.target_vocab, E)
                                            .padding_idx(Vocabulary::kPad)));
  ScoreDimensions dims{2 * H, H, config.attention, config.max_source_length};
  attention_ = register_module("attention", Attention(config.score, dims));
  cell_ = register_module("cell", torch::nn::GRUCell(E + 2 * H, H));
  if (config.tied_readout) {
    // The embedding doubles as the output matrix; torch's N(0,1) init would start training
    // with logits of standard deviation ~√E, so start at N(0,1/E) as tied models usually do.
    torch::NoGradGuard no_grad;
    embedding_->weight.normal_(0.0, 1.0 / std::sqrt(static_cast<double>(E)));
    embedding_->weight[Vocabulary::kPad].zero_();
    readout_ = register_module("readout", torch::nn::Linear(H + 2 * H + E, E));
    output_bias_ = register_parameter("output_bias", torch::zeros({config.target_vocab}));
  } else {
    output_ = register_module("output", torch::nn::Linear(H + 2 * H + E, config.target_vocab));
  }
}

DecoderContext DecoderImpl::prepare(const torch::Tensor& states, const torch::Tensor& mask) {
  const torch::Tensor context_weight =
      cell_->weight_ih.narrow(1, config_.embedding, 2 * config_.hidden);
  return {states, attention_->keys(states), mask, torch::matmul(states, context_weight.t())};
}

torch::Tensor DecoderImpl::gru_update(const torch::Tensor& input_gates,
                                      const torch::Tensor& state) {
  // torch's GRU gate order is r, z, n.
  const torch::Tensor hidden_gates = torch::addmm(cell_->bias_hh, state, cell_->weight_hh.t());
  const auto gi = input_gates.chunk(3, 1);
  const auto gh = hidden_gates.chunk(3, 1);
  const torch::Tensor reset = torch::sigmoid(gi[0] + gh[0]);
  const torch::Tensor update = torch::sigmoid(gi[1] + gh[1]);
  const torch::Tensor candidate = torch::tanh(gi[2] + reset * gh[2]);
  return candidate + update * (state - candidate);
}

torch::Tensor DecoderImpl::output(const torch::Tensor& state, const torch::Tensor& context,
                                  const torch::Tensor& embedded) {
  const torch::Tensor features =
      torch::dropout(torch::cat({state, context, embedded}, -1), config_.dropout, is_training());
  if (!config_.tied_readout) return output_(features);
  const torch::Tensor readout = torch::tanh(readout_(features));
  return torch::matmul(readout, embedding_->weight.t()) + output_bias_;
}

DecoderStep DecoderImpl::step(const DecoderContext& context, const torch::Tensor& state,
                              const torch::Tensor& previous_tokens) {
  if (state.size(0) == 1 && !torch::GradMode::is_enabled() && !is_training())
    return step_single(context, state, previous_tokens);
  const torch::Tensor embedded = embedding_(previous_tokens);
  const torch::Tensor weights = attention_->weights(context.keys, context.mask, state);
  const torch::Tensor row = weights.unsqueeze(1);
  const torch::Tensor context_vector = torch::bmm(row, context.states).squeeze(1);
  const torch::Tensor embedding_weight = cell_->weight_ih.narrow(1, 0, config_.embedding);
  const torch::Tensor input_gates = torch::addmm(cell_->bias_ih, embedded, embedding_weight.t()) +
                                    torch::bmm(row, context.context_gates).squeeze(1);
  const torch::Tensor next = gru_update(input_gates, state);
  return {output(next, context_vector, embedded), next, weights};
}

DecoderStep DecoderImpl::step_single(const DecoderContext& context, const torch::Tensor& state,
                                     const torch::Tensor& previous_tokens) {
  const int64_t E = config_.embedding;
  const torch::Tensor h = state[0];
  const torch::Tensor embedded = embedding_->weight[previous_tokens.item<int64_t>()];
  const torch::Tensor weights = attention_->weights(context.keys, context.mask, state);
  const torch::Tensor a = weights[0];
  const torch::Tensor context_vector = torch::mv(context.states[0].t(), a);
  // weight_ih's first E columns are a strided view; BLAS gemv reads it in place.
  torch::Tensor input_gates =
      torch::addmv(cell_->bias_ih, cell_->weight_ih.narrow(1, 0, E), embedded);
  input_gates.addmv_(context.context_gates[0].t(), a);
  const torch::Tensor hidden_gates = torch::addmv(cell_->bias_hh, cell_->weight_hh, h);
  const torch::Tensor next = gru_vector_update(input_gates, hidden_gates, h);
  const torch::Tensor features = torch::cat({next, context_vector, embedded});
  const torch::Tensor output_input =
      config_.tied_readout ? torch::tanh(torch::addmv(readout_->bias, readout_->weight, features))
                           : features;
  const torch::Tensor& output_weight = config_.tied_readout ? embedding_->weight : output_->weight;
  const torch::Tensor& output_bias = config_.tied_readout ? output_bias_ : output_->bias;
  const torch::Tensor logits = half_output_ ? half_output_->multiply(output_input, output_bias)
                                            : torch::addmv(output_bias, output_weight, output_input);
  return {logits.unsqueeze(0), next.unsqueeze(0), weights};
}

void DecoderImpl::prepare_inference() {
  const torch::Tensor weight =
      (config_.tied_readout ? embedding_->weight : output_->weight).detach();
  half_output_ = HalfMatrix::is_exact_in_half(weight) ? std::make_shared<HalfMatrix>(weight) : nullptr;
}

torch::Tensor DecoderImpl::forward(const DecoderContext& context, torch::Tensor state,
                                   const torch::Tensor& inputs, torch::Tensor* attention,
                                   const torch::Tensor& keep) {
  const torch::Tensor embedded =
      torch::dropout(embedding_(inputs), config_.dropout, is_training());
  const torch::Tensor embedding_weight = cell_->weight_ih.narrow(1, 0, config_.embedding);
  const torch::Tensor embedding_gates =
      torch::matmul(embedded, embedding_weight.t()) + cell_->bias_ih;  // [B,T,3H]
  const int64_t steps = inputs.size(1);
  std::vector<torch::Tensor> states, weights;
  states.reserve(steps);
  weights.reserve(steps);
  for (int64_t t = 0; t < steps; ++t) {
    const torch::Tensor a = attention_->weights(context.keys, context.mask, state);
    const torch::Tensor input_gates =
        embedding_gates.select(1, t) + torch::bmm(a.unsqueeze(1), context.context_gates).squeeze(1);
    state = gru_update(input_gates, state);
    states.push_back(state);
    weights.push_back(a);
  }
  const torch::Tensor all_weights = torch::stack(weights, 1);          // [B,T,S]
  const torch::Tensor contexts = torch::bmm(all_weights, context.states);  // [B,T,2H]
  if (attention != nullptr) *attention = all_weights;
  const torch::Tensor all_states = torch::stack(states, 1);
  if (!keep.defined()) return output(all_states, contexts, embedded);
  return output(all_states.index({keep}), contexts.index({keep}), embedded.index({keep}));
}

}  // namespace attnscope
