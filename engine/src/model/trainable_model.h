#pragma once
// What training asks of a model, whatever its architecture.
#include <torch/torch.h>

#include <memory>

#include "attnscope/model_config.h"

namespace attnscope {

/// The engine's own models (Seq2SeqImpl, TransformerImpl): modules whose parameters a model file
/// stores by name, trained through one teacher-forced loss.
class TrainableModel : public torch::nn::Module {
 public:
  /// Teacher forcing's summed cross-entropy of predicting `expected` [B,T] (kPad where there is
  /// nothing to predict) from target_inputs [B,T] (<s> first) with label smoothing, the sources
  /// [B,S] padded with kPad to lengths [B] (int64).
  virtual torch::Tensor loss(const torch::Tensor& source, const torch::Tensor& lengths,
                             const torch::Tensor& target_inputs, const torch::Tensor& expected,
                             double label_smoothing) = 0;
  virtual const ModelConfig& config() const = 0;
  int64_t parameter_count() const;
};

/// A freshly initialised model of config.arch's architecture.
std::shared_ptr<TrainableModel> make_model(const ModelConfig& config);

}  // namespace attnscope
