#pragma once
// What the searches need from a model: encode a batch of sources, then advance decoder rows one
// token at a time. attnscope's own Seq2Seq (native_step_model.h) and Transformer
// (transformer_step_model.h) and TorchScript modules following docs/model-protocol.md
// (scripted_step_model.h) implement it, so greedy search, beam search, forced decoding and the
// step-wise session are written once for all.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

namespace attnscope {

/// Sources of token ids as a batch for an encoder: ids [B, longest] padded on the right with
/// Vocabulary::kPad, and each source's length [B].
struct PaddedSources {
  torch::Tensor ids;
  torch::Tensor lengths;
};
PaddedSources pad_sources(const std::vector<std::vector<int64_t>>& sources);

/// The decoder state of every row of a batch; each backend keeps its own kind. Immutable: a
/// step makes new rows, so a session can keep the rows before every step and go back to them.
class DecoderRows {
 public:
  virtual ~DecoderRows() = default;
};

struct StepOutput {
  torch::Tensor log_probs;  // [B,V] float
  // [B,S] float: the model's attention (mean of the last layer's heads); undefined for a model
  // without attention
  torch::Tensor attention;
  torch::Tensor heads;  // [B,layers·heads,S], or undefined for a model with one head
  std::shared_ptr<const DecoderRows> next;
};

/// Every layer's and head's self-attention over one sentence pair, for models that have it.
struct SelfAttentionWeights {
  torch::Tensor encoder;  // [layers,heads,S,S] float: source position × source position
  // [layers,heads,T,T] float: decoder input × decoder input (bos and the first T − 1 output
  // tokens), zero above the diagonal
  torch::Tensor decoder;
};

class StepModel {
 public:
  virtual ~StepModel() = default;
  /// One row per source (token ids, as the model wants them); shorter rows are padded on the
  /// right, and the attention of their padding positions is 0.
  virtual std::shared_ptr<const DecoderRows> encode(
      const std::vector<std::vector<int64_t>>& sources) = 0;
  /// previous: [B] int64, the token each row emitted last (bos() first).
  virtual StepOutput step(const DecoderRows& rows, const torch::Tensor& previous) = 0;
  /// step() reading the attention rows `attention` [B,S] (each summing to 1 over the row's
  /// source) instead of the model's own: editing attention. Only when can_edit_attention().
  virtual StepOutput step_with_attention(const DecoderRows& rows, const torch::Tensor& previous,
                                         const torch::Tensor& attention);
  /// Why step_with_attention() is not there ("" when it is), e.g. a model without attention.
  virtual std::string edit_support() const { return "this model cannot have its attention edited"; }
  /// The rows `which` (indices into `rows`, repeats allowed) as a new batch.
  virtual std::shared_ptr<const DecoderRows> select(const DecoderRows& rows,
                                                    const std::vector<int64_t>& which) = 0;
  virtual int64_t bos() const = 0;
  virtual int64_t eos() const = 0;
  /// False for a model without attention (the `none` baseline): steps leave attention undefined.
  virtual bool has_attention() const { return true; }
  virtual int layers() const { return 1; }
  virtual int heads() const { return 1; }
  /// True for a model with self-attention (a Transformer): self_attention() is there.
  virtual bool has_self_attention() const { return false; }
  /// The self-attention of reading `source` and being fed `target_inputs` (bos() first, then
  /// the tokens emitted or forced but the last): the steps that produced a translation.
  virtual SelfAttentionWeights self_attention(const std::vector<int64_t>& source,
                                              const std::vector<int64_t>& target_inputs);
};

}  // namespace attnscope
