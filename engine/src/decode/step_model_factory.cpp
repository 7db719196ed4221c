#include "decode/step_model_factory.h"

#include "decode/native_step_model.h"
#include "decode/transformer_step_model.h"

namespace attnscope {

std::unique_ptr<StepModel> make_step_model(const std::shared_ptr<TrainableModel>& model) {
  if (model->config().transformer())
    return std::make_unique<TransformerStepModel>(
        Transformer(std::static_pointer_cast<TransformerImpl>(model)));
  return std::make_unique<NativeStepModel>(Seq2Seq(std::static_pointer_cast<Seq2SeqImpl>(model)));
}

}  // namespace attnscope
