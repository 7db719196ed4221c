#include "attention.h"

#include <limits>

namespace attnscope {

AttentionImpl::AttentionImpl(const std::string& score_name, const ScoreDimensions& dims) {
  score_ = register_module("score", make_score_function(score_name, dims));
}

torch::Tensor AttentionImpl::weights(const torch::Tensor& keys, const torch::Tensor& mask,
                                     const torch::Tensor& query) {
  const torch::Tensor scores = score_->scores(keys, query);
  // where() rather than masked_fill(mask.logical_not()): one operation fewer per decoder step.
  return torch::softmax(torch::where(mask, scores, -std::numeric_limits<float>::infinity()),
                        /*dim=*/1);
}

}  // namespace attnscope
