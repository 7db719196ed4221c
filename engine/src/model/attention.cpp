#include "model/attention.h"

#include <limits>

namespace attnscope {

AttentionImpl::AttentionImpl(const std::string& score_name, const ScoreDimensions& dims) {
  score_ = register_module("score", make_score_function(score_name, dims));
}

namespace {

torch::Tensor masked_softmax(const torch::Tensor& scores, const torch::Tensor& mask) {
  // where() rather than masked_fill(mask.logical_not()): one operation fewer per decoder step.
  return torch::softmax(torch::where(mask, scores, -std::numeric_limits<float>::infinity()),
                        /*dim=*/1);
}

}  // namespace

torch::Tensor AttentionImpl::weights(const torch::Tensor& keys, const torch::Tensor& mask,
                                     const torch::Tensor& query) {
  return masked_softmax(score_->scores(keys, query), mask);
}

torch::Tensor AttentionImpl::weights(SharedStepInput& keys, const torch::Tensor& mask,
                                     const torch::Tensor& query) {
  return masked_softmax(score_->step_scores(keys, query), mask);
}

}  // namespace attnscope
