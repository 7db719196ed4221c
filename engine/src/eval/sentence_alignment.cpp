#include "attnscope/sentence_alignment.h"

#include "attnscope/errors.h"
#include "attnscope/text.h"
#include "attnscope/word_view.h"

namespace attnscope {
namespace {

// For each word of a line, the positions of the model's tokens (or pieces) that spell it.
// `tokens` is one side of a forced decoding; "</s>" belongs to no word.
std::vector<std::vector<int>> tokens_of_words(const std::vector<std::string>& words,
                                              const std::vector<std::string>& tokens,
                                              const Translation& t, const std::string& tokenizer,
                                              bool truncated, const char* side) {
  // Pieces grouped into the tokens the tokenizer made (a word model: one piece each).
  std::vector<std::vector<int>> token_groups = word_groups(tokens, t.subword_marker, t.end_token);
  if (!token_groups.empty() && tokens[token_groups.back().front()] == t.end_token)
    token_groups.pop_back();
  std::vector<std::vector<int>> result(words.size());
  size_t next = 0, expected = 0;
  for (size_t w = 0; w < words.size(); ++w) {
    // The tokenizer splits within a word only, never across the spaces between words.
    const size_t count = tokenizer == "whitespace"      ? 1
                         : tokenizer == kCasedTokenizer ? split_as_written(words[w]).size()
                                                        : tokenize(words[w]).size();
    expected += count;
    for (size_t k = 0; k < count && next < token_groups.size(); ++k, ++next)
      result[w].insert(result[w].end(), token_groups[next].begin(), token_groups[next].end());
  }
  if (next != token_groups.size() || (next < expected && !truncated))
    ATTNSCOPE_THROW_INVALID_ARGUMENT("the ", side, " words split into ", expected,
                                     " tokens one by one but into ", token_groups.size(),
                                     " as a sentence");
  return result;
}

}  // namespace

WordAttention attention_over_words(const Translator& translator, const std::string& source_line,
                                   const std::string& target_line) {
  if (!translator.info().has_attention)
    ATTNSCOPE_THROW_INVALID_ARGUMENT("model '", translator.info().name,
                                     "' has no attention to align words with");
  WordAttention result;
  result.source_words = split_on_whitespace(source_line);
  result.target_words = split_on_whitespace(target_line);
  // Copying changes no attention; the model's own tokens match the words best.
  const Translation t = translator.force_decode(source_line, target_line, UnknownWords::kKeep);
  if (t.attention.empty()) {  // a source of no tokens: nothing was attended to
    result.weights.assign(result.target_words.size(),
                          std::vector<float>(result.source_words.size(), 0.0f));
    return result;
  }
  const std::string& tokenizer = translator.info().tokenizer;
  const auto source_groups = tokens_of_words(result.source_words, t.source.tokens, t, tokenizer,
                                             t.source.truncated, "source");
  const auto target_groups =
      tokens_of_words(result.target_words, t.tokens, t, tokenizer, false, "target");
  for (const auto& rows : target_groups) {
    std::vector<float> merged(source_groups.size(), 0.0f);
    for (int r : rows)
      for (size_t w = 0; w < source_groups.size(); ++w)
        for (int c : source_groups[w]) merged[w] += t.attention[r][c];
    if (!rows.empty())
      for (float& value : merged) value /= static_cast<float>(rows.size());
    result.weights.push_back(std::move(merged));
  }
  return result;
}

}  // namespace attnscope
