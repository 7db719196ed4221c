#pragma once
// attnscope's own Seq2Seq as a StepModel.
#include "decode/step_model.h"
#include "model/seq2seq.h"

namespace attnscope {

class NativeStepModel : public StepModel {
 public:
  explicit NativeStepModel(Seq2Seq model) : model_(std::move(model)) {}

  std::shared_ptr<const DecoderRows> encode(
      const std::vector<std::vector<int64_t>>& sources) override;
  StepOutput step(const DecoderRows& rows, const torch::Tensor& previous) override;
  StepOutput step_with_attention(const DecoderRows& rows, const torch::Tensor& previous,
                                 const torch::Tensor& attention) override;
  std::string edit_support() const override;
  std::shared_ptr<const DecoderRows> select(const DecoderRows& rows,
                                            const std::vector<int64_t>& which) override;
  int64_t bos() const override;
  int64_t eos() const override;
  bool has_attention() const override { return model_->has_attention(); }
  Seq2Seq& seq2seq() { return model_; }

 private:
  StepOutput run_step(const DecoderRows& rows, const torch::Tensor& previous,
                      const torch::Tensor& attention);
  Seq2Seq model_;
};

}  // namespace attnscope
