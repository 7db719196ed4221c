// Decoding contracts on a model trained for a few seconds on the copy task.
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <cmath>

#include "attnscope/text.h"
#include "decode/search.h"
#include "engine/test_models.h"
#include "engine/translation_checks.h"
#include "io/checkpoint.h"

namespace attnscope {
namespace {

const std::vector<std::string> kSentences = {"a b c d", "t s r q p o", "e e f", "j i h g f e d c"};

class Decoding : public ::testing::TestWithParam<std::string> {
 protected:
  const Translator& translator() {
    static std::map<std::string, std::unique_ptr<Translator>> cache;
    auto& t = cache[GetParam()];
    if (!t) t = std::make_unique<Translator>(testing::copy_model(GetParam()));
    return *t;
  }
};

TEST_P(Decoding, GreedyResultsKeepTheAttentionContract) {
  for (const auto& s : kSentences) {
    const Translation t = translator().translate(s);
    EXPECT_EQ(t.tokens.back(), "</s>") << s;
    EXPECT_EQ(t.probabilities.size(), t.tokens.size());
    testing::expect_attention_contract(t);
  }
}

TEST_P(Decoding, StepwiseEqualsBatchGreedy) {
  for (const auto& s : kSentences) {
    const Translation greedy = translator().translate(s);
    auto session = translator().start(s, 3);
    while (!session->finished()) session->step();
    const Translation stepwise = session->translation();
    EXPECT_EQ(stepwise.tokens, greedy.tokens) << s;
    EXPECT_EQ(stepwise.probabilities, greedy.probabilities) << s;
    EXPECT_EQ(stepwise.attention, greedy.attention) << s;
  }
}

TEST_P(Decoding, BatchedGreedyEqualsOneByOne) {
  // The same tokens; probabilities equal up to summation order with every logit in float32, and
  // within 0.5% where the batch's logits take two passes (bfloat16 first, TwoPassLogitsScope).
  const Translator float32(testing::copy_model(GetParam()), OutputWeights::kFloat32);
  for (const Translator* t : {&translator(), &float32}) {
    const bool two_passes = t == &translator() && has_native_bfloat16();
    const auto batch = t->translate_batch(kSentences);
    for (size_t i = 0; i < kSentences.size(); ++i) {
      const Translation alone = t->translate(kSentences[i]);
      EXPECT_EQ(batch[i].tokens, alone.tokens) << kSentences[i];
      for (size_t j = 0; j < alone.probabilities.size(); ++j)
        EXPECT_NEAR(batch[i].probabilities[j], alone.probabilities[j],
                    two_passes ? 0.005 * alone.probabilities[j] : 1e-4)
            << kSentences[i] << " " << j << (two_passes ? " two passes" : " float32");
    }
  }
}

// beam_search itself with k = 1 (the Translator sends beam size 1 to greedy search, so this
// calls the search functions directly).
TEST_P(Decoding, BeamOneEqualsGreedy) {
  const std::string path = testing::copy_model(GetParam());
  const Checkpoint checkpoint = load_checkpoint(path);
  Seq2Seq model(checkpoint.config);
  load_parameters(*model, checkpoint, path);
  model->eval();
  model->prepare_inference();
  c10::InferenceMode inference;
  for (const auto& s : kSentences) {
    std::vector<int64_t> ids;
    for (const auto& token : tokenize(s)) ids.push_back(checkpoint.source_vocabulary.id(token));
    ids.push_back(Vocabulary::kEos);
    const int limit = 2 * static_cast<int>(ids.size()) + 10;
    const std::vector<Hypothesis> beam = beam_search(model, ids, 1, 1.0f, limit);
    const std::vector<Hypothesis> greedy = greedy_search(model, {ids}, {limit});
    ASSERT_EQ(beam.size(), 1u) << s;
    EXPECT_EQ(beam[0].tokens, greedy[0].tokens) << s;
    ASSERT_EQ(beam[0].probabilities.size(), greedy[0].probabilities.size()) << s;
    for (size_t j = 0; j < beam[0].probabilities.size(); ++j)
      EXPECT_NEAR(beam[0].probabilities[j], greedy[0].probabilities[j], 1e-4) << s;
  }
}

TEST_P(Decoding, BeamReturnsItsHypothesesBestFirst) {
  TranslationOptions options;
  options.beam_size = 4;
  const auto nbest = translator().translate_nbest("a b c d e", options);
  ASSERT_EQ(nbest.size(), 4u);
  for (size_t i = 1; i < nbest.size(); ++i) EXPECT_GE(nbest[i - 1].score, nbest[i].score);
  for (const auto& t : nbest) testing::expect_attention_contract(t);
  // The best beam hypothesis is at least as probable as the greedy one (by normalised score).
  const Translation greedy = translator().translate("a b c d e");
  EXPECT_GE(nbest[0].score, greedy.score / static_cast<float>(greedy.tokens.size()) - 1e-5);
}

TEST_P(Decoding, ForcedDecodingOfGreedyOutputGivesTheSameProbabilities) {
  for (const auto& s : kSentences) {
    const Translation greedy = translator().translate(s);
    const Translation forced = translator().force_decode(s, greedy.text());
    ASSERT_EQ(forced.tokens, greedy.tokens) << s;
    for (size_t j = 0; j < greedy.probabilities.size(); ++j)
      EXPECT_NEAR(forced.probabilities[j], greedy.probabilities[j], 1e-6);
    testing::expect_attention_contract(forced);
  }
}

TEST_P(Decoding, SessionForceRewindAndFinish) {
  auto session = translator().start("a b c", 4);
  const Step first = session->step();
  EXPECT_EQ(first.candidates.size(), 4u);
  EXPECT_EQ(first.candidates[0].token, first.token);
  EXPECT_FALSE(first.forced);
  session->rewind();
  EXPECT_TRUE(session->steps().empty());
  const Step forced = session->force("t");
  EXPECT_EQ(forced.token, "t");
  EXPECT_TRUE(forced.forced);
  EXPECT_LT(forced.probability, first.probability);
  const Step after = session->step();  // continues from the forced token
  EXPECT_EQ(session->steps().size(), 2u);
  EXPECT_FALSE(after.forced);
  // The step after "t" is what forced decoding of "t" followed by that token gives.
  const Translation path =
      translator().force_decode("a b c", after.token == "</s>" ? "t" : "t " + after.token);
  ASSERT_GE(path.tokens.size(), 2u);
  EXPECT_EQ(path.tokens[1], after.token);
  EXPECT_NEAR(path.probabilities[1], after.probability, 1e-5);
  ASSERT_EQ(path.attention[1].size(), after.attention.size());
  for (size_t s = 0; s < after.attention.size(); ++s)
    EXPECT_NEAR(path.attention[1][s], after.attention[s], 1e-5);
  session->rewind(10);
  EXPECT_TRUE(session->steps().empty());
  while (!session->finished()) session->step();
  EXPECT_EQ(session->steps().back().token, "</s>");
  EXPECT_THROW(session->step(), std::logic_error);
}

TEST_P(Decoding, EmptyAndUnknownInput) {
  EXPECT_TRUE(translator().translate("   ").tokens.empty());
  const Translation t = translator().translate("a zebra b");
  EXPECT_EQ(t.source.unknown_words, (std::vector<std::string>{"zebra"}));
  EXPECT_EQ(t.source.unknown, (std::vector<bool>{false, true, false, false}));
}

TEST_P(Decoding, LongInputIsTruncatedVisibly) {
  std::string longest;
  for (int i = 0; i < 50; ++i) longest += "a ";
  const Translation t = translator().translate(longest);
  EXPECT_TRUE(t.source.truncated);
  EXPECT_EQ(t.source.original_length, 50);
  EXPECT_EQ(static_cast<int64_t>(t.source.tokens.size()),
            translator().info().config.max_source_length);
}

INSTANTIATE_TEST_SUITE_P(ContentAndLocation, Decoding, ::testing::Values("additive", "location"));

}  // namespace
}  // namespace attnscope
