#include "decode/step_model.h"

#include <algorithm>
#include <stdexcept>

#include "attnscope/vocabulary.h"

namespace attnscope {

PaddedSources pad_sources(const std::vector<std::vector<int64_t>>& sources) {
  const auto batch = static_cast<int64_t>(sources.size());
  int64_t longest = 0;
  for (const auto& s : sources)
    longest = std::max<int64_t>(longest, static_cast<int64_t>(s.size()));
  PaddedSources padded{torch::full({batch, longest}, Vocabulary::kPad, torch::kLong),
                       torch::empty({batch}, torch::kLong)};
  auto ids = padded.ids.accessor<int64_t, 2>();
  auto lengths = padded.lengths.accessor<int64_t, 1>();
  for (int64_t b = 0; b < batch; ++b) {
    const auto& s = sources[static_cast<size_t>(b)];
    for (size_t i = 0; i < s.size(); ++i) ids[b][static_cast<int64_t>(i)] = s[i];
    lengths[b] = static_cast<int64_t>(s.size());
  }
  return padded;
}

StepOutput StepModel::step_with_attention(const DecoderRows&, const torch::Tensor&,
                                          const torch::Tensor&) {
  throw std::logic_error(edit_support());
}

SelfAttentionWeights StepModel::self_attention(const std::vector<int64_t>&,
                                               const std::vector<int64_t>&) {
  throw std::logic_error("this model has no self-attention");
}

}  // namespace attnscope
