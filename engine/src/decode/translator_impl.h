#pragma once
// What a loaded model is inside a Translator, shared by the translator and its decoding
// sessions (decoding_session.h): a StepModel for the searches and a TokenMapping for the text,
// whichever kind of model file it came from.
#include <torch/torch.h>

#include <algorithm>
#include <memory>

#include "attnscope/model_info.h"
#include "attnscope/translation.h"
#include "attnscope/translator.h"
#include "decode/search.h"
#include "decode/step_model.h"
#include "decode/token_mapping.h"

namespace attnscope {

struct Translator::Impl {
  std::unique_ptr<StepModel> model;
  TokenMapping tokens;
  ModelInfo info;
  // kInt8 serves one-sentence steps only, so batched greedy search then decodes each alone.
  OutputWeights output_weights = OutputWeights::kAsStored;

  int max_length(const SourceText& source, const TranslationOptions& options) const {
    const float length = static_cast<float>(source.tokens.size());
    return std::max(1,
                    static_cast<int>(options.max_length_ratio * length) + options.max_length_extra);
  }

  /// A Translation that knows how this model's tokens form words.
  Translation empty_translation(const SourceText& source) const {
    Translation t;
    t.source = source;
    t.subword_marker = tokens.subword_marker();
    t.end_token = tokens.end_token();
    t.unknown_token = tokens.unknown_token();
    t.has_attention = model->has_attention();
    return t;
  }

  HeadAttention head_attention(std::vector<float> weights, int64_t source_length) const {
    return {model->layers(), model->heads(), static_cast<int>(source_length), std::move(weights)};
  }

  Translation to_translation(const SourceText& source, const Hypothesis& h,
                             UnknownWords unknown_words, const CopyRule& copy_rule = {}) const {
    Translation t = empty_translation(source);
    for (int64_t id : h.tokens) t.tokens.push_back(tokens.target_token(id));
    t.probabilities = h.probabilities;
    t.attention = h.attention;
    const auto source_length = static_cast<int64_t>(source.tokens.size());
    for (const auto& weights : h.heads)
      t.head_attention.push_back(head_attention(weights, source_length));
    t.score = h.score;
    if (unknown_words == UnknownWords::kCopy) copy_unknown_words(t, copy_rule);
    return t;
  }
};

}  // namespace attnscope
