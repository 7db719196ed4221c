// Attention over the words of pre-tokenised lines: tokens and pieces of one word merged back,
// "</s>" left out, checked on the TorchScript toy (known attention) and on a subword model.
#include <attnscope/sentence_alignment.h>
#include <attnscope/text.h>
#include <attnscope/translator.h>
#include <attnscope/word_alignment.h>
#include <attnscope/word_view.h>
#include <gtest/gtest.h>

#include <numeric>

#include "engine/scripted_modules.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

float sum(const std::vector<float>& v, size_t from, size_t to) {
  return std::accumulate(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to),
                         0.0f);
}

TEST(SentenceAlignment, OneTokenPerWordKeepsTheMatrixWithoutTheEndToken) {
  const Translator toy(testing::write_scripted_module({}, "align_toy"));
  const WordAttention words = attention_over_words(toy, "a b c", "a b c");
  EXPECT_EQ(words.source_words, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(words.weights.size(), 3u);
  for (int t = 0; t < 3; ++t) {
    const std::vector<float> expected = testing::toy_attention(t, 4, 0.5f);  // a b c </s>
    ASSERT_EQ(words.weights[t].size(), 3u);
    for (int s = 0; s < 3; ++s) EXPECT_NEAR(words.weights[t][s], expected[s], 1e-6);
  }
  EXPECT_EQ(pharaoh_text(alignment_from_attention(words.weights, AlignmentMethod{})),
            "0-0 1-1 2-2");
}

// attnscope's tokenizer splits "b,c" into three tokens; their columns make one word.
TEST(SentenceAlignment, TokensOfOneWordAreSummedIntoIt) {
  testing::ScriptedModuleSpec spec;
  spec.tokenizer = "attnscope";
  const Translator toy(testing::write_scripted_module(spec, "align_toy_tokenizer"));
  const WordAttention words = attention_over_words(toy, "a b,c d", "a b c d");
  EXPECT_EQ(words.source_words, (std::vector<std::string>{"a", "b,c", "d"}));
  ASSERT_EQ(words.weights.size(), 4u);
  for (int t = 0; t < 4; ++t) {
    const std::vector<float> row = testing::toy_attention(t, 6, 0.5f);  // a b , c d </s>
    ASSERT_EQ(words.weights[t].size(), 3u);
    EXPECT_NEAR(words.weights[t][0], row[0], 1e-6);
    EXPECT_NEAR(words.weights[t][1], sum(row, 1, 4), 1e-6);
    EXPECT_NEAR(words.weights[t][2], row[4], 1e-6);
  }
}

// Pieces of a word: source columns summed, target rows averaged, so a word's row holds 1 minus
// its pieces' mean weight on "</s>".
TEST(SentenceAlignment, PiecesOfASubwordModelMergeIntoTheLinesWords) {
  const Translator model(testing::subword_model());
  // Each target word is one token; the source's "so." is two ("so" "."): words 0, 1, 2 are
  // tokens {0}, {1}, {2, 3}.
  const std::string source = "Kalomi nerutavi so.", target = "so nerutavi kalomi .";
  const WordAttention words = attention_over_words(model, source, target);
  const Translation t = model.force_decode(source, target, UnknownWords::kKeep);
  const auto source_tokens = word_groups(t.source.tokens, t.subword_marker, t.end_token);
  const auto target_tokens = word_groups(t.tokens, t.subword_marker, t.end_token);
  ASSERT_EQ(source_tokens.size(), 5u);  // kalomi nerutavi so . </s>
  ASSERT_EQ(target_tokens.size(), 5u);  // so nerutavi kalomi . </s>
  ASSERT_GT(t.source.tokens.size(), 5u) << "no word was split into pieces";
  const std::vector<std::vector<int>> source_words = {{0}, {1}, {2, 3}};
  ASSERT_EQ(words.weights.size(), 4u);
  for (size_t w = 0; w < 4; ++w) {
    const auto& rows = target_tokens[w];
    ASSERT_EQ(words.weights[w].size(), 3u);
    float end = 0;
    for (int r : rows) end += t.attention[r].back() / rows.size();
    for (size_t v = 0; v < 3; ++v) {
      float expected = 0;
      for (int r : rows)
        for (int token : source_words[v])
          for (int c : source_tokens[token]) expected += t.attention[r][c] / rows.size();
      EXPECT_NEAR(words.weights[w][v], expected, 1e-5) << w << " " << v;
    }
    const auto& row = words.weights[w];
    EXPECT_NEAR(std::accumulate(row.begin(), row.end(), 0.0f), 1.0f - end, 1e-5);
  }
}

TEST(SentenceAlignment, AnEmptyLineHasNoWordsAndNoLinks) {
  const Translator toy(testing::write_scripted_module({}, "align_toy_empty"));
  const WordAttention words = attention_over_words(toy, "a b", "");
  EXPECT_TRUE(words.weights.empty());
  const WordAttention no_source = attention_over_words(toy, "", "a b");
  ASSERT_EQ(no_source.weights.size(), 2u);
  EXPECT_TRUE(no_source.weights[0].empty());
  EXPECT_TRUE(alignment_from_attention(no_source.weights, AlignmentMethod{}).empty());
}

}  // namespace
}  // namespace attnscope
