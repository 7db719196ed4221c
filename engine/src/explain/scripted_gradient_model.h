#pragma once
// GradientModel (gradient_model.h) for a TorchScript module with the optional methods embed()
// and encode_embedded() (docs/model-protocol.md).
#include <memory>
#include <string>

#include "explain/gradient_model.h"
#include "model/scripted_model.h"

namespace attnscope {

/// The gradient model of `model`, or nullptr with *why_not set to the one-line note of what the
/// module lacks (ScriptedModel::gradient_methods_missing()).
std::unique_ptr<GradientModel> scripted_gradient_model(std::shared_ptr<const ScriptedModel> model,
                                                       std::string* why_not);

}  // namespace attnscope
