#include "decode/decoding_session.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnscope {

StepwiseSession::StepwiseSession(const Translator::Impl& impl, SourceText source, int top_k,
                                 UnknownWords unknown_words)
    : impl_(impl),
      source_(std::move(source)),
      top_k_(std::max(1, top_k)),
      unknown_words_(unknown_words) {
  c10::InferenceMode inference;
  if (!source_.tokens.empty()) {
    rows_.push_back(impl_.model->encode({impl_.tokens.source_ids(source_)}));
    max_steps_ = impl_.max_length(source_, TranslationOptions{});
  }
}

const Step& StepwiseSession::force(const std::string& token) {
  return advance(impl_.tokens.target_id(token));
}

void StepwiseSession::rewind(int n) {
  const auto count = static_cast<size_t>(std::clamp<int>(n, 0, static_cast<int>(steps_.size())));
  steps_.resize(steps_.size() - count);
  rows_.resize(rows_.size() - count);
}

bool StepwiseSession::finished() const {
  return static_cast<int>(steps_.size()) >= max_steps_ ||
         (!steps_.empty() && steps_.back().id == impl_.model->eos());
}

Translation StepwiseSession::translation() const {
  Translation t = impl_.empty_translation(source_);
  for (const Step& s : steps_) {
    t.tokens.push_back(s.token);
    t.probabilities.push_back(s.probability);
    if (t.has_attention) t.attention.push_back(s.attention);
    if (!s.heads.empty()) t.head_attention.push_back(s.heads);
    t.score += std::log(s.probability);
  }
  if (unknown_words_ == UnknownWords::kCopy) copy_unknown_words(t);
  return t;
}

const Step& StepwiseSession::advance(int64_t forced_id) {
  if (finished()) throw std::logic_error("decoding session has finished");
  c10::InferenceMode inference;
  const int64_t previous = steps_.empty() ? impl_.model->bos() : steps_.back().id;
  StepOutput out = impl_.model->step(*rows_.back(), torch::full({1}, previous, torch::kLong));
  const torch::Tensor log_probs = out.log_probs[0];
  // Greedy search takes max(); so does this, so both pick the same token on ties.
  const int64_t argmax = std::get<1>(log_probs.max(0)).item<int64_t>();
  Step step;
  step.forced = forced_id >= 0 && forced_id != argmax;
  step.id = static_cast<int>(forced_id >= 0 ? forced_id : argmax);
  step.token = impl_.tokens.target_token(step.id);
  step.probability = std::exp(log_probs[step.id].item<float>());
  const auto k = std::min<int64_t>(top_k_, log_probs.size(0));
  auto [top_values, top_ids] = log_probs.topk(k);
  for (int64_t i = 0; i < k; ++i) {
    const int64_t id = top_ids[i].item<int64_t>();
    step.candidates.push_back({impl_.tokens.target_token(id), static_cast<int>(id),
                               std::exp(top_values[i].item<float>())});
  }
  const auto source_length = static_cast<int64_t>(source_.tokens.size());
  if (out.attention.defined()) step.attention = tensor_row(out.attention, 0, source_length);
  if (out.heads.defined())
    step.heads = impl_.head_attention(head_rows(out.heads, 0, source_length), source_length);
  step.entropy = attention_entropy(step.attention);
  steps_.push_back(std::move(step));
  rows_.push_back(std::move(out.next));
  return steps_.back();
}

}  // namespace attnscope
