#include "decode/step_model.h"

#include <stdexcept>

namespace attnscope {

StepOutput StepModel::step_with_attention(const DecoderRows&, const torch::Tensor&,
                                          const torch::Tensor&) {
  throw std::logic_error(edit_support());
}

}  // namespace attnscope
