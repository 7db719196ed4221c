#pragma once
// A TorchScript module (model/scripted_model.h) as a StepModel. The protocol decodes one
// sentence and one row at a time, so a batch is a loop over its rows.
#include <memory>
#include <string>

#include "decode/step_model.h"
#include "model/scripted_model.h"

namespace attnscope {

class ScriptedStepModel : public StepModel {
 public:
  explicit ScriptedStepModel(std::shared_ptr<const ScriptedModel> model)
      : model_(std::move(model)) {}

  std::shared_ptr<const DecoderRows> encode(
      const std::vector<std::vector<int64_t>>& sources) override;
  StepOutput step(const DecoderRows& rows, const torch::Tensor& previous) override;
  /// The module's step_with_attention() on each row's first source_length weights. For a module
  /// with several heads, a row equal to the one step() shows (the mean of the last layer's
  /// heads) runs step() instead: every head reading that mean is not the model's own step.
  StepOutput step_with_attention(const DecoderRows& rows, const torch::Tensor& previous,
                                 const torch::Tensor& attention) override;
  std::string edit_support() const override { return model_->edit_method_missing(); }
  std::shared_ptr<const DecoderRows> select(const DecoderRows& rows,
                                            const std::vector<int64_t>& which) override;
  int64_t bos() const override { return model_->attributes().bos; }
  int64_t eos() const override { return model_->attributes().eos; }
  int layers() const override { return model_->layers(); }
  int heads() const override { return model_->heads(); }
  const std::shared_ptr<const ScriptedModel>& scripted() const { return model_; }

 private:
  StepOutput run_step(const DecoderRows& rows, const torch::Tensor& previous,
                      const torch::Tensor& attention);
  std::shared_ptr<const ScriptedModel> model_;
};

}  // namespace attnscope
