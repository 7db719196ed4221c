#pragma once
// A TorchScript module (model/scripted_model.h) as a StepModel. The protocol decodes one
// sentence and one row at a time, so a batch is a loop over its rows.
#include <memory>

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
  std::shared_ptr<const DecoderRows> select(const DecoderRows& rows,
                                            const std::vector<int64_t>& which) override;
  int64_t bos() const override { return model_->attributes().bos; }
  int64_t eos() const override { return model_->attributes().eos; }
  int layers() const override { return model_->layers(); }
  int heads() const override { return model_->heads(); }

 private:
  std::shared_ptr<const ScriptedModel> model_;
};

}  // namespace attnscope
