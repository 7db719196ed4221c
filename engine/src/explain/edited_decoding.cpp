#include <c10/core/InferenceMode.h>

#include <cmath>
#include <map>
#include <stdexcept>

#include "attnscope/explanation.h"
#include "decode/search.h"
#include "decode/translator_impl.h"

namespace attnscope {
namespace {

// The edits by step (AttentionEdit::kEveryStep for `all`), one a step: a second edit of a step
// would silently replace or reshape the first, so it is refused.
std::map<int, const AttentionEdit*> edits_by_step(const std::vector<AttentionEdit>& edits) {
  std::map<int, const AttentionEdit*> by_step;
  for (const AttentionEdit& edit : edits) {
    const auto [earlier, inserted] = by_step.emplace(edit.step, &edit);
    if (inserted) continue;
    const std::string which = edit.step == AttentionEdit::kEveryStep
                                  ? "every step (all)"
                                  : "step " + std::to_string(edit.step + 1);
    throw std::invalid_argument("attention edits '" + earlier->second->spec().substr(0, 60) +
                                "' and '" + edit.spec().substr(0, 60) + "' both edit " + which +
                                ": give a step one edit (zero=I,J zeroes several positions)");
  }
  return by_step;
}

}  // namespace

std::string edit_support(const Translator& translator) {
  return translator.impl().model->edit_support();
}

EditedTranslation translate_with_edits(const Translator& translator, const std::string& sentence,
                                       const WhatIf& what_if, const TranslationOptions& options) {
  const Translator::Impl& impl = translator.impl();
  StepModel& model = *impl.model;
  if (!what_if.edits.empty() && !model.edit_support().empty())
    throw std::runtime_error(model.edit_support());
  const std::map<int, const AttentionEdit*> by_step = edits_by_step(what_if.edits);
  const auto every_step = by_step.find(AttentionEdit::kEveryStep);
  c10::InferenceMode inference;
  EditedTranslation result;
  const SourceText source = impl.tokens.prepare_source(sentence);
  if (impl.tokens.is_empty(source)) {
    if (!what_if.edits.empty())
      throw std::invalid_argument("attention edit '" + what_if.edits.front().spec().substr(0, 60) +
                                  "': the sentence is empty, so no step reads attention");
    result.translation = impl.empty_translation(source);
    return result;
  }
  const std::vector<int64_t> ids = impl.tokens.source_ids(source);
  const auto source_length = static_cast<int64_t>(ids.size());
  const int limit = impl.max_length(source, options);
  std::shared_ptr<const DecoderRows> rows = model.encode({ids});
  int64_t previous = model.bos();
  Hypothesis h;
  for (int t = 0; t < limit; ++t) {
    const torch::Tensor previous_tensor = torch::full({1}, previous, torch::kLong);
    StepOutput out = model.step(*rows, previous_tensor);
    bool edited = false;
    std::vector<float> row;
    // An `all` edit first, then the step's own edit of what it left.
    const auto own = by_step.find(t);
    for (const auto& edit : {every_step, own}) {
      if (edit == by_step.end()) continue;
      if (!edited) row = tensor_row(out.attention, 0, source_length);
      if (!edited) result.original_rows.push_back(row);
      row = edit->second->apply(row);
      edited = true;
    }
    if (edited) {
      result.edited_steps.push_back(t);
      out = model.step_with_attention(*rows, previous_tensor,
                                      torch::tensor(row, torch::kFloat).unsqueeze(0));
    }
    const auto forced = what_if.forced.find(t);
    const int64_t token = forced != what_if.forced.end()
                              ? impl.tokens.target_id(forced->second)
                              : out.log_probs[0].argmax().item<int64_t>();
    const float log_prob = out.log_probs[0][token].item<float>();
    h.tokens.push_back(token);
    h.probabilities.push_back(std::exp(log_prob));
    h.log_probability += log_prob;
    if (out.attention.defined()) h.attention.push_back(tensor_row(out.attention, 0, source_length));
    if (out.heads.defined()) h.heads.push_back(head_rows(out.heads, 0, source_length));
    rows = std::move(out.next);
    previous = token;
    if (token == model.eos()) break;
  }
  for (const AttentionEdit& edit : what_if.edits)
    if (edit.step != AttentionEdit::kEveryStep && edit.step >= static_cast<int>(h.tokens.size()))
      throw std::invalid_argument(
          "attention edit '" + edit.spec() + "': step " + std::to_string(edit.step + 1) +
          " is past the end of the translation (" + std::to_string(h.tokens.size()) + " steps)");
  h.score = h.log_probability;
  result.translation = impl.to_translation(source, h, options.unknown_words, options.copy_rule);
  return result;
}

}  // namespace attnscope
