#pragma once
// attnscope's Transformer as a StepModel: the encoder runs once, each decoder layer's
// cross-attention keys and values are made once, and every step adds one position to each
// layer's cached self-attention keys and values (fairseq's incremental state).
#include "decode/step_model.h"
#include "model/transformer.h"

namespace attnscope {

class TransformerStepModel : public StepModel {
 public:
  explicit TransformerStepModel(Transformer model) : model_(std::move(model)) {}

  std::shared_ptr<const DecoderRows> encode(
      const std::vector<std::vector<int64_t>>& sources) override;
  /// attention: the mean of the last layer's cross-attention heads; heads: every layer's
  /// cross-attention heads, layer-major (undefined for one layer of one head).
  StepOutput step(const DecoderRows& rows, const torch::Tensor& previous) override;
  std::string edit_support() const override {
    return "a Transformer's attention cannot be edited (it reads one per layer and head)";
  }
  std::shared_ptr<const DecoderRows> select(const DecoderRows& rows,
                                            const std::vector<int64_t>& which) override;
  int64_t bos() const override;
  int64_t eos() const override;
  int layers() const override { return static_cast<int>(model_->layers()); }
  int heads() const override { return static_cast<int>(model_->heads()); }
  bool has_self_attention() const override { return true; }
  SelfAttentionWeights self_attention(const std::vector<int64_t>& source,
                                      const std::vector<int64_t>& target_inputs) override;
  Transformer& transformer() { return model_; }

 private:
  Transformer model_;
};

}  // namespace attnscope
