#pragma once
// What a loaded model is inside a Translator, shared by the translator and its decoding
// sessions (decoding_session.h).
#include <torch/torch.h>

#include <algorithm>

#include "attnscope/model_info.h"
#include "attnscope/translation.h"
#include "attnscope/translator.h"
#include "attnscope/vocabulary.h"
#include "decode/search.h"

namespace attnscope {

struct Translator::Impl {
  mutable Seq2Seq model{nullptr};  // torch modules have no const forward
  Vocabulary source_vocabulary;
  Vocabulary target_vocabulary;
  ModelInfo info;

  std::vector<int64_t> source_ids(const SourceText& source) const {
    std::vector<int64_t> ids;
    for (size_t i = 0; i + 1 < source.tokens.size(); ++i)
      ids.push_back(source_vocabulary.id(source.tokens[i]));
    ids.push_back(Vocabulary::kEos);
    return ids;
  }

  int max_length(const SourceText& source, const TranslationOptions& options) const {
    const float length = static_cast<float>(source.tokens.size());
    return std::max(1,
                    static_cast<int>(options.max_length_ratio * length) + options.max_length_extra);
  }

  Translation to_translation(const SourceText& source, const Hypothesis& h) const {
    Translation t;
    t.source = source;
    for (int64_t id : h.tokens) t.tokens.push_back(target_vocabulary.token(id));
    t.probabilities = h.probabilities;
    t.attention = h.attention;
    t.score = h.score;
    return t;
  }
};

}  // namespace attnscope
