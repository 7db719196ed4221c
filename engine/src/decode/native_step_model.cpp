#include "decode/native_step_model.h"

#include <algorithm>
#include <stdexcept>

#include "attnscope/vocabulary.h"

namespace attnscope {
namespace {

// What encode() made, shared by every row derived from it.
struct EncodedSources {
  DecoderContext context;  // one row per source
  // One source only (beam search, sessions): its context repeated for up to repeated_rows rows,
  // built once and narrowed, instead of gathering the context again after every step.
  mutable DecoderContext repeated;
  mutable int64_t repeated_rows = 0;

  bool single() const { return context.states.size(0) == 1; }

  DecoderContext single_source_rows(int64_t n) const {
    if (n == 1) return context;  // keeps context_logits, the one-sentence fast path
    if (repeated_rows < n) {
      repeated_rows = std::max(n, 2 * repeated_rows);
      repeated = context.repeat(repeated_rows);
    }
    return {repeated.states.narrow(0, 0, n), repeated.keys.narrow(0, 0, n),
            repeated.mask.narrow(0, 0, n), repeated.context_gates.narrow(0, 0, n), torch::Tensor()};
  }
};

struct NativeRows : DecoderRows {
  std::shared_ptr<const EncodedSources> sources;
  DecoderContext context;  // one row per decoder row
  torch::Tensor state;     // [B,H]
};

torch::Tensor gather(const torch::Tensor& t, const torch::Tensor& index) {
  return t.defined() ? t.index_select(0, index) : t;
}

}  // namespace

std::shared_ptr<const DecoderRows> NativeStepModel::encode(
    const std::vector<std::vector<int64_t>>& sources) {
  const PaddedSources padded = pad_sources(sources);
  EncodedBatch encoded = model_->encode(padded.ids, padded.lengths);
  auto shared = std::make_shared<EncodedSources>();
  shared->context = encoded.context;
  auto rows = std::make_shared<NativeRows>();
  rows->sources = shared;
  rows->context = std::move(encoded.context);
  rows->state = std::move(encoded.initial_state);
  return rows;
}

StepOutput NativeStepModel::step(const DecoderRows& rows, const torch::Tensor& previous) {
  return run_step(rows, previous, torch::Tensor());
}

StepOutput NativeStepModel::step_with_attention(const DecoderRows& rows,
                                                const torch::Tensor& previous,
                                                const torch::Tensor& attention) {
  if (!model_->has_attention()) throw std::logic_error(edit_support());
  return run_step(rows, previous, attention);
}

std::string NativeStepModel::edit_support() const {
  return model_->has_attention() ? ""
                                 : "the model 'none' has no attention to edit (its context is "
                                   "the encoder's final states at every step)";
}

StepOutput NativeStepModel::run_step(const DecoderRows& rows, const torch::Tensor& previous,
                                     const torch::Tensor& attention) {
  const auto& native = static_cast<const NativeRows&>(rows);
  DecoderStep out = model_->step(native.context, native.state, previous, attention);
  auto next = std::make_shared<NativeRows>();
  next->sources = native.sources;
  next->context = native.context;
  next->state = std::move(out.state);
  return {torch::log_softmax(out.logits, 1),
          model_->has_attention() ? std::move(out.attention) : torch::Tensor(), torch::Tensor(),
          std::move(next)};
}

std::shared_ptr<const DecoderRows> NativeStepModel::select(const DecoderRows& rows,
                                                           const std::vector<int64_t>& which) {
  const auto& native = static_cast<const NativeRows&>(rows);
  const torch::Tensor index = torch::tensor(which, torch::kLong);
  auto selected = std::make_shared<NativeRows>();
  selected->sources = native.sources;
  selected->state = native.state.index_select(0, index);
  if (native.sources->single()) {
    selected->context = native.sources->single_source_rows(static_cast<int64_t>(which.size()));
  } else {
    const DecoderContext& c = native.context;
    selected->context = {gather(c.states, index), gather(c.keys, index), gather(c.mask, index),
                         gather(c.context_gates, index), torch::Tensor()};
  }
  return selected;
}

int64_t NativeStepModel::bos() const { return Vocabulary::kBos; }
int64_t NativeStepModel::eos() const { return Vocabulary::kEos; }

}  // namespace attnscope
