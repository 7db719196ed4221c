#include "decode/decoding_session.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attnscope/text.h"

namespace attnscope {

StepwiseSession::StepwiseSession(const Translator::Impl& impl, SourceText source, int top_k)
    : impl_(impl), source_(std::move(source)), top_k_(std::max(1, top_k)) {
  c10::InferenceMode inference;
  encoded_ = encode_sources(impl_.model, {impl_.source_ids(source_)});
  states_.push_back(encoded_.initial_state);
  max_steps_ = impl_.max_length(source_, TranslationOptions{});
}

const Step& StepwiseSession::force(const std::string& token) {
  return advance(impl_.target_vocabulary.id(to_lower(token)));
}

void StepwiseSession::rewind(int n) {
  const auto count = static_cast<size_t>(std::clamp<int>(n, 0, static_cast<int>(steps_.size())));
  steps_.resize(steps_.size() - count);
  states_.resize(states_.size() - count);
}

bool StepwiseSession::finished() const {
  return static_cast<int>(steps_.size()) >= max_steps_ ||
         (!steps_.empty() && steps_.back().id == Vocabulary::kEos);
}

Translation StepwiseSession::translation() const {
  Translation t;
  t.source = source_;
  for (const Step& s : steps_) {
    t.tokens.push_back(s.token);
    t.probabilities.push_back(s.probability);
    t.attention.push_back(s.attention);
    t.score += std::log(s.probability);
  }
  return t;
}

const Step& StepwiseSession::advance(int64_t forced_id) {
  if (finished()) throw std::logic_error("decoding session has finished");
  c10::InferenceMode inference;
  const int64_t previous = steps_.empty() ? Vocabulary::kBos : steps_.back().id;
  DecoderStep out =
      impl_.model->step(encoded_.context, states_.back(), torch::full({1}, previous, torch::kLong));
  const torch::Tensor log_probs = torch::log_softmax(out.logits, 1)[0];
  // Greedy search takes max(); so does this, so both pick the same token on ties.
  const int64_t argmax = std::get<1>(log_probs.max(0)).item<int64_t>();
  Step step;
  step.forced = forced_id >= 0 && forced_id != argmax;
  step.id = static_cast<int>(forced_id >= 0 ? forced_id : argmax);
  step.token = impl_.target_vocabulary.token(step.id);
  step.probability = std::exp(log_probs[step.id].item<float>());
  const auto k = std::min<int64_t>(top_k_, log_probs.size(0));
  auto [top_values, top_ids] = log_probs.topk(k);
  for (int64_t i = 0; i < k; ++i) {
    const int64_t id = top_ids[i].item<int64_t>();
    step.candidates.push_back({impl_.target_vocabulary.token(id), static_cast<int>(id),
                               std::exp(top_values[i].item<float>())});
  }
  step.attention = tensor_row(out.attention, 0, static_cast<int64_t>(source_.tokens.size()));
  step.entropy = attention_entropy(step.attention);
  steps_.push_back(std::move(step));
  states_.push_back(out.state);
  return steps_.back();
}

}  // namespace attnscope
