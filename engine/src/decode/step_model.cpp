#include "decode/step_model.h"

#include <stdexcept>

namespace attnscope {

StepOutput StepModel::step_with_attention(const DecoderRows&, const torch::Tensor&,
                                          const torch::Tensor&) {
  throw std::logic_error(edit_support());
}

SelfAttentionWeights StepModel::self_attention(const std::vector<int64_t>&,
                                               const std::vector<int64_t>&) {
  throw std::logic_error("this model has no self-attention");
}

}  // namespace attnscope
