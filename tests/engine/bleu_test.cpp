#include <attnscope/bleu.h>
#include <attnscope/text.h>
#include <gtest/gtest.h>

#include <cmath>

namespace attnscope {
namespace {

using Corpus = std::vector<std::vector<std::string>>;

TEST(Bleu, IdenticalCorpusScores100) {
  const Corpus c = {tokenize("a man rides a horse on the beach .")};
  EXPECT_NEAR(corpus_bleu(c, c).bleu, 100.0, 1e-9);
}

TEST(Bleu, NoFourGramMatchScoresZero) {
  EXPECT_EQ(corpus_bleu({tokenize("a b c d")}, {tokenize("d c b a")}).bleu, 0.0);
}

TEST(Bleu, HandComputedExampleWithBrevityPenalty) {
  // hyp "the cat sat on the mat" (6) vs ref "the cat sat on the red mat" (7):
  // p1 = 6/6, p2 = 4/5, p3 = 3/4, p4 = 2/3, BP = exp(1 - 7/6).
  const BleuScore s =
      corpus_bleu({tokenize("the cat sat on the mat")}, {tokenize("the cat sat on the red mat")});
  const double expected =
      100.0 * std::exp(1.0 - 7.0 / 6.0) * std::pow(1.0 * 0.8 * 0.75 * (2.0 / 3.0), 0.25);
  EXPECT_NEAR(s.bleu, expected, 1e-9);
  EXPECT_NEAR(s.precisions[1], 80.0, 1e-9);
  EXPECT_NEAR(s.brevity_penalty, std::exp(1.0 - 7.0 / 6.0), 1e-12);
}

TEST(Bleu, ClipsRepeatedWordsAndPoolsOverTheCorpus) {
  // Papineni's example: "the the the the the the the" against "the cat is on the mat" has
  // modified unigram precision 2/7. Pooled with a perfect second sentence the counts add up.
  const BleuScore s =
      corpus_bleu({tokenize("the the the the the the the")}, {tokenize("the cat is on the mat")});
  EXPECT_NEAR(s.precisions[0], 100.0 * 2 / 7, 1e-9);
  const BleuScore pooled =
      corpus_bleu({tokenize("the the the the the the the"), tokenize("a b c d e")},
                  {tokenize("the cat is on the mat"), tokenize("a b c d e")});
  EXPECT_NEAR(pooled.precisions[0], 100.0 * 7 / 12, 1e-9);
  EXPECT_NEAR(pooled.precisions[3], 100.0 * 2 / 6, 1e-9);
}

TEST(Bleu, SentenceBleuAddsOneToHigherOrderCounts) {
  // "a b c d" against "d c b a": p1 = 4/4, p2 = (0+1)/(3+1), p3 = 1/3, p4 = 1/2, BP = 1.
  const BleuScore s = sentence_bleu(tokenize("a b c d"), tokenize("d c b a"));
  EXPECT_NEAR(s.bleu, 100.0 * std::pow(1.0 * 0.25 * (1.0 / 3) * 0.5, 0.25), 1e-9);
  EXPECT_GT(s.bleu, corpus_bleu({tokenize("a b c d")}, {tokenize("d c b a")}).bleu);
  // A perfect sentence still scores 100; no unigram match still scores 0.
  EXPECT_NEAR(sentence_bleu(tokenize("a man rides"), tokenize("a man rides")).bleu, 100.0, 1e-9);
  EXPECT_EQ(sentence_bleu(tokenize("x y"), tokenize("a b")).bleu, 0.0);
  EXPECT_EQ(sentence_bleu({}, tokenize("a b")).bleu, 0.0);
}

TEST(Bleu, MismatchedCorpusSizesAreAnError) {
  EXPECT_THROW(corpus_bleu({{"a"}}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace attnscope
