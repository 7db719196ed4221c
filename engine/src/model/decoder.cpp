#include "model/decoder.h"

#include <cmath>

#include "attnscope/score_functions.h"
#include "attnscope/vocabulary.h"
#include "model/score/score_registry.h"
#include "ops/deferred_weight_gradient.h"
#include "ops/dropout.h"
#include "ops/gru_cell.h"
#include "ops/linear_cross_entropy.h"
#include "ops/mixed_precision.h"
#include "ops/step_kernels.h"

namespace attnscope {

DecoderContext DecoderContext::repeat(int64_t times) const {
  auto expand = [times](const torch::Tensor& t) { return t.repeat_interleave(times, 0); };
  return {expand(states), expand(keys), expand(mask), expand(context_gates), torch::Tensor()};
}

DecoderImpl::DecoderImpl(const ModelConfig& config) : config_(config) {
  const int64_t E = config.embedding, H = config.hidden;
  embedding_ = register_module(
      "embedding",
      torch::nn::Embedding(
          torch::nn::EmbeddingOptions(config.target_vocab, E).padding_idx(Vocabulary::kPad)));
  const ScoreDimensions dims = score_dimensions(config);
  attention_ = register_module("attention", Attention(config.score, dims));
  if (conditional()) {
    query_cell_ = register_module("query_cell", torch::nn::GRUCell(E, H));
    cell_ = register_module("cell", torch::nn::GRUCell(2 * H, H));
  } else {
    cell_ = register_module("cell", torch::nn::GRUCell(E + 2 * H, H));
  }
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

namespace {

// The no-attention baseline's context: the encoder's final states, the forward direction's at
// each sentence's last token and the backward direction's at its first (what the bridge reads),
// as a source of one position [B,1,2H].
torch::Tensor final_states(const torch::Tensor& states, const torch::Tensor& mask) {
  const int64_t H = states.size(2) / 2;
  const torch::Tensor last = (mask.sum(1) - 1).clamp_min(0).view({-1, 1, 1}).expand({-1, 1, H});
  return torch::cat(
      {states.narrow(2, 0, H).gather(1, last), states.narrow(2, H, H).narrow(1, 0, 1)}, 2);
}

// The score function's multiply-adds: per weight element read, what its matrices cost a step.
ScoreMultiplyAdds score_work(const ModelConfig& config) {
  return score_registration(config.score).multiply_adds(score_dimensions(config));
}

// Set by TwoPassLogitsScope.
thread_local bool two_pass_logits_wanted = false;

// With int8 output weights (and in TwoPassLogitsScope's first pass), the step's largest logits
// are computed again from the unrounded weights (`exact(row)`): the rounding alone changed 2.7%
// of the default of then's greedy translations of test_2016_flickr (`translate --output-weights
// int8` against `--batch 1`).
template <typename Exact>
void recompute_largest(float* logits, int64_t count, Exact exact) {
  constexpr int64_t kRecomputed = 8;
  int64_t rows[kRecomputed];
  const int64_t found = step_kernels::largest(logits, count, kRecomputed, rows);
  for (int64_t i = 0; i < found; ++i) logits[rows[i]] = exact(rows[i]);
}

}  // namespace

TwoPassLogitsScope::TwoPassLogitsScope() : previous_(two_pass_logits_wanted) {
  two_pass_logits_wanted = true;
}

TwoPassLogitsScope::~TwoPassLogitsScope() { two_pass_logits_wanted = previous_; }

DecoderContext DecoderImpl::prepare(const torch::Tensor& encoder_states,
                                    const torch::Tensor& encoder_mask) {
  // Without attention the fixed context stands in for the encoder states: attending over its
  // one position gives weight 1 to it at every step, so the steps below read exactly it.
  const bool fixed = !has_attention(config_.score);
  const torch::Tensor states = fixed ? final_states(encoder_states, encoder_mask) : encoder_states;
  const torch::Tensor mask = fixed ? torch::ones({states.size(0), 1}, torch::kBool) : encoder_mask;
  DecoderContext context{states, attention_->keys(states), mask,
                         mixed_linear(states, context_input_weight(), {}), torch::Tensor()};
  if (context_output_weight_t_.defined() && states.size(0) == 1 && !torch::GradMode::is_enabled())
    context.context_logits = int8_context_ ? int8_context_->multiply(states[0])
                                           : torch::mm(states[0], context_output_weight_t_);
  return context;
}

DecoderContext DecoderImpl::prepare_tangent(const torch::Tensor& encoder_states,
                                            const torch::Tensor& encoder_mask,
                                            const torch::Tensor& d_encoder_states) {
  const int64_t N = d_encoder_states.size(0), B = encoder_states.size(0);
  const torch::Tensor d_flat = d_encoder_states.flatten(0, 1);  // [N·B,S,2H]
  const bool fixed = !has_attention(config_.score);
  // final_states() only picks positions: its derivative picks the same of the tangent.
  const torch::Tensor states = fixed ? final_states(encoder_states, encoder_mask) : encoder_states;
  const torch::Tensor d_states = fixed ? final_states(d_flat, encoder_mask.repeat({N, 1})) : d_flat;
  const torch::Tensor d_keys =
      attention_->keys_tangent(states, d_states.view({N, B, d_states.size(1), -1}));
  return {d_states, d_keys.flatten(0, 1), torch::Tensor(), torch::Tensor(), torch::Tensor()};
}

bool DecoderImpl::conditional() const { return config_.decoder == kConditionalGruDecoder; }

torch::Tensor DecoderImpl::embedding_input_weight() const {
  return conditional() ? query_cell_->weight_ih : cell_->weight_ih.narrow(1, 0, config_.embedding);
}

torch::Tensor DecoderImpl::embedding_input_bias() const {
  return conditional() ? query_cell_->bias_ih : cell_->bias_ih;
}

torch::Tensor DecoderImpl::context_input_weight() const {
  return conditional() ? cell_->weight_ih
                       : cell_->weight_ih.narrow(1, config_.embedding, 2 * config_.hidden);
}

torch::Tensor DecoderImpl::gru_update(const torch::nn::GRUCell& cell,
                                      const torch::Tensor& input_gates,
                                      const torch::Tensor& state) {
  return gru_cell(input_gates, recurrent_product(state, cell->weight_hh, cell->bias_hh), state);
}

DecoderImpl::Query DecoderImpl::query(const torch::Tensor& embedding_gates,
                                      const torch::Tensor& state) {
  if (!conditional()) return {state, embedding_gates};
  // Rows may share one previous token (attribution): the GRU update wants one row each.
  const torch::Tensor gates = embedding_gates.size(0) == state.size(0)
                                  ? embedding_gates
                                  : embedding_gates.expand({state.size(0), -1});
  return {gru_update(query_cell_, gates, state), cell_->bias_ih};
}

torch::Tensor DecoderImpl::output_matrix_input(const torch::Tensor& state,
                                               const torch::Tensor& context,
                                               const torch::Tensor& embedded) {
  const torch::Tensor features =
      apply_dropout(torch::cat({state, context, embedded}, -1), config_.dropout, is_training());
  return config_.tied_readout ? torch::tanh(readout_(features)) : features;
}

torch::Tensor DecoderImpl::output(const torch::Tensor& state, const torch::Tensor& context,
                                  const torch::Tensor& embedded) {
  const torch::Tensor input = output_matrix_input(state, context, embedded);
  if (!config_.tied_readout) return output_(input);
  return torch::matmul(input, embedding_->weight.t()) + output_bias_;
}

DecoderStep DecoderImpl::step(const DecoderContext& context, const torch::Tensor& state,
                              const torch::Tensor& previous_tokens, const torch::Tensor& weights) {
  if (state.size(0) == 1 && !torch::GradMode::is_enabled() && !is_training())
    return step_single(context, state, previous_tokens, weights);
  DecoderUpdate next = update(context, state, previous_tokens, weights);
  torch::Tensor logits = two_pass_logits_wanted && bfloat16_output_t_.defined() &&
                                 !torch::GradMode::is_enabled() && !is_training()
                             ? two_pass_logits(next)
                             : this->logits(next);
  return {std::move(logits), std::move(next.state), std::move(next.weights)};
}

torch::Tensor DecoderImpl::two_pass_logits(const DecoderUpdate& update) {
  const bool tied = config_.tied_readout;
  const torch::Tensor input =
      output_matrix_input(update.state, update.context_vector, update.embedded)
          .contiguous();                                                           // [B,K]
  const torch::Tensor exact_weight = tied ? embedding_->weight : output_->weight;  // [V,K]
  const torch::Tensor bias_tensor = tied ? output_bias_ : output_->bias;
  const int64_t B = input.size(0), K = input.size(1), V = exact_weight.size(0);
  torch::Tensor logits = torch::empty({B, V});
  {
    // Rows padded to a multiple of 16: as rows finish the shapes repeat, and oneDNN's kernels
    // for them are compiled once.
    MatmulPrecisionScope bfloat16(Precision::kBFloat16);
    copy_product_rows(
        logits, raw_product(product_operand(input, product_rows(B, 16)), bfloat16_output_t_), 0);
  }
  logits.add_(bias_tensor);
  const float* bias = bias_tensor.data_ptr<float>();
  const float* w = exact_weight.data_ptr<float>();
  const float* x = input.data_ptr<float>();
  float* out = logits.data_ptr<float>();
  for (int64_t b = 0; b < B; ++b)
    recompute_largest(out + b * V, V, [&](int64_t row) {
      return bias[row] + step_kernels::dot(x + b * K, w + row * K, K);
    });
  return logits;
}

DecoderUpdate DecoderImpl::update(const DecoderContext& context, const torch::Tensor& state,
                                  const torch::Tensor& previous_tokens,
                                  const torch::Tensor& weights) {
  const torch::Tensor embedded = embedding_(previous_tokens);
  const Query q =
      query(torch::addmm(embedding_input_bias(), embedded, embedding_input_weight().t()), state);
  const torch::Tensor a =
      weights.defined() ? weights : attention_->weights(context.keys, context.mask, q.state);
  const torch::Tensor row = a.unsqueeze(1);
  const torch::Tensor context_vector = torch::bmm(row, context.states).squeeze(1);
  const torch::Tensor context_gates =
      context.context_gates.defined() ? torch::bmm(row, context.context_gates).squeeze(1)
                                      : torch::matmul(context_vector, context_input_weight().t());
  return {gru_update(cell_, q.gates + context_gates, q.state), context_vector, embedded, a};
}

DecoderStep DecoderImpl::step_single(const DecoderContext& context, const torch::Tensor& state,
                                     const torch::Tensor& previous_tokens,
                                     const torch::Tensor& given_weights) {
  namespace k = step_kernels;
  const int64_t E = config_.embedding, H = config_.hidden, V = config_.target_vocab;
  const int64_t S = context.states.size(1);
  const torch::Tensor h_tensor = state.contiguous();
  const float* h = h_tensor.data_ptr<float>();
  const torch::Tensor embedding_row = embedding_->weight[previous_tokens.item<int64_t>()];
  const float* embedded = embedding_row.data_ptr<float>();  // a row of a contiguous table
  std::vector<float> input_gates(static_cast<size_t>(3 * H)), hidden_gates(input_gates.size());
  k::matrix_vector(half_step_.embedding_gates, embedding_input_weight(), embedded,
                   embedding_input_bias().data_ptr<float>(), input_gates.data());
  torch::Tensor query = h_tensor;
  if (conditional()) {
    query = torch::empty({1, H});
    k::matrix_vector(half_step_.query_hidden_gates, query_cell_->weight_hh, h,
                     query_cell_->bias_hh.data_ptr<float>(), hidden_gates.data());
    k::gru_update(input_gates.data(), hidden_gates.data(), h, query.data_ptr<float>(), H);
    const float* bias = cell_->bias_ih.data_ptr<float>();
    std::copy(bias, bias + 3 * H, input_gates.begin());
  }
  const float* q = query.data_ptr<float>();
  const torch::Tensor weights = given_weights.defined()
                                    ? given_weights
                                    : attention_->weights(context.keys, context.mask, query);
  const torch::Tensor attention = weights.to(torch::kFloat).contiguous();
  const float* a = attention.data_ptr<float>();
  // Σₛ aₛ hₛ, made only where a path below needs it.
  std::vector<float> context_vector;
  auto weighted_states = [&]() -> const float* {
    if (context_vector.empty()) {
      context_vector.assign(static_cast<size_t>(2 * H), 0.0f);
      const torch::Tensor states = context.states.contiguous();
      k::add_weighted_rows(a, states.data_ptr<float>(), S, 2 * H, context_vector.data());
    }
    return context_vector.data();
  };
  if (context.context_gates.defined()) {
    const torch::Tensor gates = context.context_gates.contiguous();
    k::add_weighted_rows(a, gates.data_ptr<float>(), S, 3 * H, input_gates.data());
  } else {
    std::vector<float> sum(input_gates);
    k::matrix_vector(nullptr, context_input_weight(), weighted_states(), sum.data(),
                     input_gates.data());
  }
  k::matrix_vector(half_step_.hidden_gates, cell_->weight_hh, q, cell_->bias_hh.data_ptr<float>(),
                   hidden_gates.data());
  torch::Tensor next = torch::empty({1, H});
  float* n = next.data_ptr<float>();
  k::gru_update(input_gates.data(), hidden_gates.data(), q, n, H);

  torch::Tensor logits = torch::empty({1, V});
  float* out = logits.data_ptr<float>();
  // [state; context; embedding], or without the context when the output layer adds it apart.
  std::vector<float> features;
  auto append = [&features](const float* from, int64_t count) {
    features.insert(features.end(), from, from + count);
  };
  append(n, H);
  if (config_.tied_readout) {
    append(weighted_states(), 2 * H);
    append(embedded, E);
    std::vector<float> readout(static_cast<size_t>(E));
    k::matrix_vector(half_step_.readout, readout_->weight, features.data(),
                     readout_->bias.data_ptr<float>(), readout.data());
    k::tanh_in_place(readout.data(), E);
    const float* bias = output_bias_.data_ptr<float>();
    if (int8_output_) {
      int8_output_->multiply(readout.data(), bias, out);
      recompute_largest(out, V, [&](int64_t row) {
        return bias[row] + int8_output_->exact_dot(row, readout.data());
      });
    } else {
      k::matrix_vector(half_output_, embedding_->weight, readout.data(), bias, out);
    }
  } else if (int8_output_ || half_output_) {
    append(embedded, E);
    // The context columns' part [V] (a product per sentence, or with the step's context), kept
    // apart so that the rows computed again below reuse it.
    std::vector<float> context_part(static_cast<size_t>(V), 0.0f);
    if (context.context_logits.defined())
      k::add_weighted_rows(a, context.context_logits.data_ptr<float>(), S, V, context_part.data());
    else
      k::add_weighted_rows(weighted_states(), context_output_weight_t_.data_ptr<float>(), 2 * H, V,
                           context_part.data());
    const float* bias = output_->bias.data_ptr<float>();
    if (int8_output_)
      int8_output_->multiply(features.data(), bias, out);
    else
      half_output_->multiply(features.data(), bias, out);
    for (int64_t v = 0; v < V; ++v) out[v] += context_part[static_cast<size_t>(v)];
    if (int8_output_) {
      // context_logits made by int8_context_ are rounded too.
      const bool rounded_context = context.context_logits.defined() && int8_context_;
      recompute_largest(out, V, [&](int64_t row) {
        const float context_logit = rounded_context
                                        ? int8_context_->exact_dot(row, weighted_states())
                                        : context_part[static_cast<size_t>(row)];
        return bias[row] + int8_output_->exact_dot(row, features.data()) + context_logit;
      });
    }
  } else {
    append(weighted_states(), 2 * H);
    append(embedded, E);
    k::matrix_vector(nullptr, output_->weight, features.data(), output_->bias.data_ptr<float>(),
                     out);
  }
  return {std::move(logits), std::move(next), weights};
}

void DecoderImpl::prepare_inference(OutputWeights output) {
  half_output_ = nullptr;
  int8_output_ = nullptr;
  half_step_ = {};
  context_output_weight_t_ = torch::Tensor();
  int8_context_ = nullptr;
  bfloat16_output_t_ = torch::Tensor();
  if (output == OutputWeights::kAsStored && has_native_bfloat16())
    bfloat16_output_t_ = (config_.tied_readout ? embedding_->weight : output_->weight)
                             .detach()
                             .t()
                             .contiguous()
                             .to(torch::kBFloat16);
  // Without the vector kernel a half-precision product is no faster than BLAS on float32.
  if (!HalfMatrix::has_vector_kernel()) return;
  // The step's smaller matrices too: read every step, a fifth to a third of its bytes.
  auto half = [](const torch::Tensor& weight) {
    const torch::Tensor w = weight.detach().contiguous();
    return HalfMatrix::is_exact_in_half(w) ? std::make_shared<HalfMatrix>(w) : nullptr;
  };
  half_step_.embedding_gates = half(embedding_input_weight());
  half_step_.hidden_gates = half(cell_->weight_hh);
  if (conditional()) half_step_.query_hidden_gates = half(query_cell_->weight_hh);
  if (config_.tied_readout) {
    half_step_.readout = half(readout_->weight);
    if (output == OutputWeights::kInt8)
      int8_output_ = std::make_shared<Int8Matrix>(embedding_->weight.detach());
    else
      half_output_ = half(embedding_->weight);
    return;
  }
  const int64_t H = config_.hidden;
  // Columns: [state H; context 2H; embedding E].
  const torch::Tensor weight = output_->weight.detach();
  if (!HalfMatrix::is_exact_in_half(weight)) return;
  const torch::Tensor state_and_embedding =
      torch::cat({weight.narrow(1, 0, H), weight.narrow(1, 3 * H, config_.embedding)}, 1);
  if (output == OutputWeights::kInt8)
    int8_output_ = std::make_shared<Int8Matrix>(state_and_embedding);
  else
    half_output_ = std::make_shared<HalfMatrix>(state_and_embedding);
  // Transposed and contiguous, [2H,V]: the per-sentence product then needs no packing of a
  // transposed 2H × V matrix (measured 3.0 instead of 4.4 ms for a 13-word sentence).
  context_output_weight_t_ = weight.narrow(1, H, 2 * H).t().contiguous();
  if (output == OutputWeights::kInt8 && Int8PanelMatrix::available())
    int8_context_ = std::make_shared<Int8PanelMatrix>(weight.narrow(1, H, 2 * H));
}

int64_t DecoderImpl::bytes_read_per_step(int64_t source_length) const {
  const int64_t E = config_.embedding, H = config_.hidden, V = config_.target_vocab;
  const int64_t S = source_length, F = H + 2 * H + E;
  constexpr int64_t kFloat = 4, kHalf = 2;
  // Each matrix-vector product reads its matrix once: a weight element per multiply-add.
  auto matrix = [&](const std::shared_ptr<HalfMatrix>& half, int64_t elements) {
    return elements * (half ? kHalf : kFloat);
  };
  int64_t bytes = E * kFloat;  // the embedding row
  bytes +=
      matrix(half_step_.embedding_gates, 3 * H * E) + matrix(half_step_.hidden_gates, 3 * H * H);
  if (conditional()) bytes += matrix(half_step_.query_hidden_gates, 3 * H * H);
  const ScoreMultiplyAdds score = score_work(config_);
  // The query's work and the keys it reads; the states and context gates it weighs.
  bytes += (score.per_target + score.per_pair * S + S * (2 * H + 3 * H)) * kFloat;
  constexpr int64_t kInt8 = 1;
  const int64_t output_element = int8_output_ ? kInt8 : half_output_ ? kHalf : kFloat;
  if (config_.tied_readout) {
    bytes += matrix(half_step_.readout, E * F);
    bytes += V * E * output_element;
  } else if (int8_output_ || half_output_) {
    // The context's logits, made per sentence.
    bytes += V * (H + E) * output_element + S * V * kFloat;
  } else {
    bytes += V * F * kFloat;
  }
  return bytes;
}

int64_t DecoderImpl::bytes_read_per_sentence() const {
  const int64_t H = config_.hidden, V = config_.target_vocab;
  const ScoreMultiplyAdds score = score_work(config_);
  // A position's multiply-adds in the keys' projection are the projection's weights.
  const int64_t floats = score.per_source + 3 * H * 2 * H;
  int64_t bytes = floats * 4;
  if (int8_context_)
    bytes += int8_context_->weight_bytes();
  else if (context_output_weight_t_.defined())
    bytes += 2 * H * V * 4;
  return bytes;
}

DecoderImpl::TeacherForcedSteps DecoderImpl::run_teacher_forced(const DecoderContext& context,
                                                                torch::Tensor state,
                                                                const torch::Tensor& inputs) {
  const torch::Tensor embedded = apply_dropout(embedding_(inputs), config_.dropout, is_training());
  const torch::Tensor embedding_gates =
      mixed_linear(embedded, embedding_input_weight(), embedding_input_bias());  // [B,T,3H]
  const int64_t steps = inputs.size(1);
  // One tensor per step: selecting step t of the whole tensor instead would make backward
  // build and sum a zero-padded full-size gradient for every step.
  const std::vector<torch::Tensor> step_gates = embedding_gates.unbind(1);
  std::vector<torch::Tensor> states, weights;
  states.reserve(steps);
  weights.reserve(steps);
  // Every step reads these; the steps themselves sum their gradients (shared_step_input.h).
  SharedStepInput keys(context.keys), context_gates(context.context_gates);
  for (int64_t t = 0; t < steps; ++t) {
    const Query q = query(step_gates[static_cast<size_t>(t)], state);
    const torch::Tensor a = attention_->weights(keys, context.mask, q.state);
    state = gru_update(cell_, q.gates + context_gates.weighted_sum(a), q.state);
    states.push_back(state);
    weights.push_back(a);
  }
  const torch::Tensor all_weights = torch::stack(weights, 1);  // [B,T,S]
  return {torch::stack(states, 1), torch::bmm(all_weights, context.states), embedded, all_weights};
}

torch::Tensor DecoderImpl::forward(const DecoderContext& context, torch::Tensor state,
                                   const torch::Tensor& inputs, torch::Tensor* attention) {
  const TeacherForcedSteps run = run_teacher_forced(context, std::move(state), inputs);
  if (attention != nullptr) *attention = run.attention;
  return output(run.states, run.contexts, run.embedded);
}

torch::Tensor DecoderImpl::loss(const DecoderContext& context, torch::Tensor state,
                                const torch::Tensor& inputs, const torch::Tensor& expected,
                                double label_smoothing) {
  const TeacherForcedSteps run = run_teacher_forced(context, std::move(state), inputs);
  const torch::Tensor keep = expected != Vocabulary::kPad;
  const torch::Tensor targets = expected.masked_select(keep);
  const torch::Tensor states = run.states.index({keep}), contexts = run.contexts.index({keep});
  const bool dropout = is_training() && config_.dropout > 0.0;
  if (config_.tied_readout || dropout) {
    const torch::Tensor features =
        apply_dropout(torch::cat({states, contexts, run.embedded.index({keep})}, -1),
                      config_.dropout, is_training());
    if (!config_.tied_readout)
      return linear_cross_entropy_sum({features, {}, {}}, output_->weight, output_->bias, targets,
                                      label_smoothing);
    return linear_cross_entropy_sum({torch::tanh(readout_(features)), {}, {}}, embedding_->weight,
                                    output_bias_, targets, label_smoothing);
  }
  // Without dropout a position's embedding input is its token's row of the table, which the
  // output layer can take once per distinct token (see linear_cross_entropy.h).
  const auto [tokens, row_index] =
      torch::_unique(inputs.masked_select(keep), /*sorted=*/false, /*return_inverse=*/true);
  return linear_cross_entropy_sum(
      {torch::cat({states, contexts}, -1), embedding_->weight.index_select(0, tokens), row_index},
      output_->weight, output_->bias, targets, label_smoothing);
}

}  // namespace attnscope
