#pragma once
#include <torch/torch.h>

#include "attnscope/model_config.h"
#include "model/attention.h"
#include "ops/half_matrix.h"
#include "ops/int8_matrix.h"
#include "ops/int8_panel_matrix.h"

namespace attnscope {

/// What the decoder needs of one batch of sources, computed once before decoding.
struct DecoderContext {
  torch::Tensor states;  // encoder states [B,S,2H]
  torch::Tensor keys;    // the score function's keys [B,S,K]
  torch::Tensor mask;    // [B,S], true at real tokens
  // Each position's contribution to the GRU input gates, states · W_cᵀ [B,S,3H]. The context
  // vector enters the GRU only linearly, so Σₛ aₛ (W_c hₛ) = W_c Σₛ aₛ hₛ: one small product
  // per step instead of a 2H × 3H matrix product. Undefined, the steps multiply the context
  // vector by W_c instead (cheaper when many rows share few sources, as in attribution).
  torch::Tensor context_gates;
  // Only for one sentence decoded by a model prepared for inference with a direct (untied)
  // output layer: each position's contribution to the logits, states · W_oᶜᵀ [S,V], where W_oᶜ
  // are the output matrix's context columns. By the same linearity the context then costs a
  // [S,V] product per step instead of reading V × 2H weights, the largest part of the output
  // layer. The product costs about what 10–15 steps save (measured at the reference's shape:
  // 0.89 → 0.61 ms per token over 20-step sentences, the product included).
  torch::Tensor context_logits;

  /// Repeats every source `times` times along the batch (beam search); drops context_logits.
  DecoderContext repeat(int64_t times) const;
};

struct DecoderStep {
  torch::Tensor logits;     // [B,V]
  torch::Tensor state;      // [B,H]
  torch::Tensor attention;  // [B,S]; [B,1] without attention (the fixed context's weight, 1)
};

/// One step's recurrent part, before the output layer.
struct DecoderUpdate {
  torch::Tensor state;           // [B,H], the next state
  torch::Tensor context_vector;  // [B,2H]
  torch::Tensor embedded;        // [B,E], the previous tokens' embeddings
  torch::Tensor weights;         // [B,S], the attention the step read
};

/// For the life of this object, on the calling thread, the batched steps of a decoder prepared
/// for inference with the stored output weights make their logits in two passes where bfloat16
/// products are native: the whole output layer in bfloat16 (oneDNN's AMX kernels, ~4× float32's
/// speed), then each row's 8 largest logits again in float32, as int8 decoding does. For greedy
/// search over many sentences (issue 32): its token is float32's unless float32's best is not
/// among the first pass's 8 best; the other logits, and so the softmax's sum, are bfloat16's.
class TwoPassLogitsScope {
 public:
  TwoPassLogitsScope();
  ~TwoPassLogitsScope();
  TwoPassLogitsScope(const TwoPassLogitsScope&) = delete;
  TwoPassLogitsScope& operator=(const TwoPassLogitsScope&) = delete;

 private:
  bool previous_;
};

/// GRU decoder fed [target embedding; context], attention queried with the previous state,
/// output over [state; context; embedding]; or, with config.decoder "cgru", the conditional GRU
/// (see kConditionalGruDecoder): the embedding and the context enter two GRUs in turn, and
/// attention is queried between them. With the score "none" the context is the same at every
/// step, the encoder's final states (prepare() says how).
class DecoderImpl : public torch::nn::Module {
 public:
  explicit DecoderImpl(const ModelConfig& config);
  /// encoder_states [B,S,2H], encoder_mask [B,S] true at real tokens.
  DecoderContext prepare(const torch::Tensor& encoder_states, const torch::Tensor& encoder_mask);
  /// prepare()'s derivative along N tangents of the encoder states [N,B,S,2H]: the tangents of
  /// its states and keys, [N·B,S,2H] and [N·B,S,K] (tangent-major). Not of its context gates: a
  /// context for attribution leaves them out (see context_gates).
  DecoderContext prepare_tangent(const torch::Tensor& encoder_states,
                                 const torch::Tensor& encoder_mask,
                                 const torch::Tensor& d_encoder_states);
  /// One step for every row: previous tokens [B], state [B,H]. `weights` [B,S], when given,
  /// replace the attention the model would compute (editing attention); the step is otherwise
  /// the same arithmetic, so giving the model's own weights changes no bit of the result.
  DecoderStep step(const DecoderContext& context, const torch::Tensor& state,
                   const torch::Tensor& previous_tokens, const torch::Tensor& weights = {});
  /// step() without the output layer, differentiable (attribution runs many rows through the
  /// recurrence and needs the logits of only a few of them at each step).
  DecoderUpdate update(const DecoderContext& context, const torch::Tensor& state,
                       const torch::Tensor& previous_tokens, const torch::Tensor& weights = {});
  /// The logits [B,V] of an update.
  torch::Tensor logits(const DecoderUpdate& update) {
    return output(update.state, update.context_vector, update.embedded);
  }
  /// Teacher forcing over inputs [B,T]: logits [B,T,V]; attention [B,T,S] when asked for. The
  /// output layer runs once over all steps, which is where training spends most of its time.
  torch::Tensor forward(const DecoderContext& context, torch::Tensor state,
                        const torch::Tensor& inputs, torch::Tensor* attention = nullptr);
  /// Teacher forcing's summed cross-entropy of predicting `expected` [B,T] (kPad where there is
  /// nothing to predict) from inputs [B,T], with label smoothing: the same value as
  /// cross_entropy over forward()'s logits at the real positions, without keeping those logits.
  torch::Tensor loss(const DecoderContext& context, torch::Tensor state,
                     const torch::Tensor& inputs, const torch::Tensor& expected,
                     double label_smoothing);
  /// For a model that will only decode from now on (loaded from a file): keeps half-precision
  /// copies of the output matrix and the step's other matrices for batch-1 steps, each where
  /// that copy is exact. Training afterwards
  /// would make the copy stale, so call it only on models that are done training.
  /// `output`: kInt8 rounds the output matrix (tied) or its state and embedding columns
  /// (untied) to 8-bit integers (Int8Matrix) in place of the half-precision copy; kAsStored
  /// also keeps a bfloat16 copy for TwoPassLogitsScope where bfloat16 products are native.
  void prepare_inference(OutputWeights output = OutputWeights::kAsStored);
  /// Bytes of weights (and per-sentence tensors) one batch-1 decoding step reads, as prepared:
  /// its floor is this divided by the memory's read bandwidth. `source_length` counts </s>.
  int64_t bytes_read_per_step(int64_t source_length) const;
  /// Bytes of weights prepare() reads once per sentence for batch-1 decoding: the keys' and
  /// the context gates' projections, and (direct output layer) the context columns' logits.
  int64_t bytes_read_per_sentence() const;

 private:
  struct TeacherForcedSteps {
    torch::Tensor states;     // [B,T,H]
    torch::Tensor contexts;   // [B,T,2H]
    torch::Tensor embedded;   // [B,T,E], after dropout
    torch::Tensor attention;  // [B,T,S]
  };
  // The recurrent part of teacher forcing, shared by forward() and loss().
  TeacherForcedSteps run_teacher_forced(const DecoderContext& context, torch::Tensor state,
                                        const torch::Tensor& inputs);
  // step() for one sentence without autograd, in matrix-vector products on plain arrays
  // (step_kernels.h): at batch size 1 a one-row matrix product (addmm) costs ~5x a
  // matrix-vector product (mv) on this BLAS, and each torch operation's fixed cost more than
  // its arithmetic. Only the score function runs as torch operations.
  DecoderStep step_single(const DecoderContext& context, const torch::Tensor& state,
                          const torch::Tensor& previous_tokens, const torch::Tensor& weights);
  bool conditional() const;  // config.decoder is the conditional GRU
  // The weights [3H,E] and bias [3H] that turn the target embedding into input gates, and the
  // weights [3H,2H] that turn the context into input gates (of the one GRU, or of each of two).
  torch::Tensor embedding_input_weight() const;
  torch::Tensor embedding_input_bias() const;
  torch::Tensor context_input_weight() const;
  torch::Tensor gru_update(const torch::nn::GRUCell& cell, const torch::Tensor& input_gates,
                           const torch::Tensor& state);
  // What attention is queried with, and what the context's input gates are added to before the
  // (second) GRU updates that state: the previous state and the embedding's gates (one GRU), or
  // the first GRU's new state and the second GRU's input bias (conditional GRU).
  struct Query {
    torch::Tensor state;  // [B,H]
    torch::Tensor gates;  // [B,3H] or [3H]
  };
  Query query(const torch::Tensor& embedding_gates, const torch::Tensor& state);
  torch::Tensor output(const torch::Tensor& state, const torch::Tensor& context,
                       const torch::Tensor& embedded);
  // What the output matrix multiplies: [state; context; embedding] (dropout applied in
  // training), or with a tied readout tanh(readout) of it.
  torch::Tensor output_matrix_input(const torch::Tensor& state, const torch::Tensor& context,
                                    const torch::Tensor& embedded);

  ModelConfig config_;
  torch::nn::Embedding embedding_{nullptr};
  Attention attention_{nullptr};
  torch::nn::GRUCell query_cell_{nullptr};  // conditional GRU: the first, fed the embedding
  torch::nn::GRUCell cell_{nullptr};        // the GRU whose state is the step's
  torch::nn::Linear readout_{nullptr};      // tied_readout: [state; context; embedding] -> E
  torch::Tensor output_bias_;               // tied_readout: logits = tanh(readout) · Eᵀ + bias
  torch::nn::Linear output_{nullptr};       // otherwise: [state; context; embedding] -> V
  // See prepare_inference(): the output matrix in half precision (tied), or its state and
  // embedding columns in half precision plus its context columns (untied).
  std::shared_ptr<HalfMatrix> half_output_;
  std::shared_ptr<Int8Matrix> int8_output_;  // the same in 8-bit integers, when asked for
  torch::Tensor context_output_weight_t_;    // [2H,V]
  // With int8 output weights on a CPU with AVX512-VNNI, the context columns for the
  // per-sentence context_logits (rounded, so the largest logits take their exact part again).
  std::shared_ptr<Int8PanelMatrix> int8_context_;
  // The same for the step's other matrices (each null where float32 BLAS is used).
  struct HalfStepWeights {
    std::shared_ptr<HalfMatrix> embedding_gates;     // embedding_input_weight()
    std::shared_ptr<HalfMatrix> query_hidden_gates;  // conditional GRU: query_cell's weight_hh
    std::shared_ptr<HalfMatrix> hidden_gates;        // cell's weight_hh
    std::shared_ptr<HalfMatrix> readout;             // tied_readout's readout weight
  };
  HalfStepWeights half_step_;
  // See TwoPassLogitsScope: the output matrix rounded to bfloat16, transposed [K,V].
  torch::Tensor bfloat16_output_t_;
  torch::Tensor two_pass_logits(const DecoderUpdate& update);
};
TORCH_MODULE(Decoder);

}  // namespace attnscope
