#pragma once
// The StepModel of a model the engine built itself, by its architecture.
#include <memory>

#include "decode/step_model.h"
#include "model/trainable_model.h"

namespace attnscope {

/// A NativeStepModel or a TransformerStepModel decoding with `model` (its weights shared, not
/// copied: training's validation decodes the weights as they are).
std::unique_ptr<StepModel> make_step_model(const std::shared_ptr<TrainableModel>& model);

}  // namespace attnscope
