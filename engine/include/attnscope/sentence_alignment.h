#pragma once
// Attention over the words of pre-tokenised text, as gold alignment sets give it (one sentence
// per line, words separated by spaces): where the model's tokenizer or subword pieces split one
// such word, their attention is merged back into it, so indices count the words of the line.
#include <string>
#include <vector>

#include "attnscope/translator.h"

namespace attnscope {

struct WordAttention {
  std::vector<std::string> source_words;  // the source line split at spaces and tabs
  std::vector<std::string> target_words;
  // [target word][source word]: the columns of a source word's tokens summed, the rows of a
  // target word's tokens averaged. "</s>" is left out, so a row sums to at most 1; a source word
  // the model did not read (a truncated sentence) has a column of zeros.
  std::vector<std::vector<float>> weights;
};

/// Forced-decodes `target_line` for `source_line` and merges the attention into their words.
/// Throws std::invalid_argument when the model's tokens cannot be matched to the words.
WordAttention attention_over_words(const Translator& translator, const std::string& source_line,
                                   const std::string& target_line);

}  // namespace attnscope
