// The `none` baseline (Bahdanau et al.'s RNNencdec): the decoder reads one fixed context, the
// encoder's final states, at every step, and nothing it decodes carries an attention matrix.
#include <attnscope/corpus_evaluation.h>
#include <attnscope/score_functions.h>
#include <attnscope/sentence_alignment.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include "engine/test_models.h"
#include "model/decoder.h"
#include "model/seq2seq.h"

namespace attnscope {
namespace {

TEST(NoAttention, TheContextIsTheEncodersFinalStatesAtEveryStep) {
  torch::manual_seed(5);
  const ModelConfig config = testing::tiny_config(kNoAttention);
  const int64_t H = config.hidden;
  Decoder decoder(config);
  decoder->eval();
  torch::NoGradGuard no_grad;
  const torch::Tensor states = torch::randn({2, 5, 2 * H});
  const torch::Tensor mask = length_mask(torch::tensor({5, 3}, torch::kLong), 5);
  const DecoderContext context = decoder->prepare(states, mask);
  ASSERT_EQ(context.states.sizes(), (std::vector<int64_t>{2, 1, 2 * H}));
  ASSERT_EQ(context.mask.sizes(), (std::vector<int64_t>{2, 1}));
  // Forward direction at each sentence's last token, backward direction at its first.
  for (const auto& [row, last] : {std::pair<int64_t, int64_t>{0, 4}, {1, 2}}) {
    const torch::Tensor expected =
        torch::cat({states[row][last].narrow(0, 0, H), states[row][0].narrow(0, H, H)});
    EXPECT_TRUE(torch::equal(context.states[row][0], expected)) << "row " << row;
  }
  // The batch path and the one-sentence path both weigh the one context position with 1.
  const DecoderStep batch =
      decoder->step(context, torch::zeros({2, H}), torch::tensor({2, 2}, torch::kLong));
  EXPECT_EQ(batch.attention.sizes(), (std::vector<int64_t>{2, 1}));
  EXPECT_TRUE(torch::all(batch.attention == 1).item<bool>());
  const DecoderContext one = decoder->prepare(states.narrow(0, 1, 1), mask.narrow(0, 1, 1));
  const DecoderStep single =
      decoder->step(one, torch::zeros({1, H}), torch::tensor({2}, torch::kLong));
  EXPECT_TRUE(torch::allclose(single.logits, batch.logits.narrow(0, 1, 1), 1e-4, 1e-5));
  EXPECT_EQ(single.attention.sizes(), (std::vector<int64_t>{1, 1}));
}

TEST(NoAttention, HasTheAttentionModelsDecoderWithoutTheScoresParameters) {
  // The same decoder shapes (context 2H wide) as every attention model, so the comparison is
  // about attention alone; the score's own parameters are all it lacks.
  const Seq2Seq none(testing::tiny_config(kNoAttention));
  const Seq2Seq dot(testing::tiny_config("dot"));  // dot has no parameters of its own
  EXPECT_EQ(none->parameter_count(), dot->parameter_count());
  EXPECT_FALSE(none->has_attention());
  EXPECT_TRUE(dot->has_attention());
}

class NoAttentionModel : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    translator_ = new Translator(testing::random_model_file(kNoAttention));
  }
  static void TearDownTestSuite() {
    delete translator_;
    translator_ = nullptr;
  }
  static Translator* translator_;
};
Translator* NoAttentionModel::translator_ = nullptr;

void expect_no_attention(const Translation& t) {
  EXPECT_FALSE(t.has_attention);
  EXPECT_TRUE(t.attention.empty());
  EXPECT_FALSE(t.tokens.empty());
  EXPECT_EQ(t.probabilities.size(), t.tokens.size());
}

TEST_F(NoAttentionModel, TranslationsOfEverySearchHaveTokensButNoAttention) {
  EXPECT_FALSE(translator_->info().has_attention);
  EXPECT_EQ(translator_->info().name, kNoAttention);
  expect_no_attention(translator_->translate("a b c"));
  TranslationOptions beam;
  beam.beam_size = 3;
  expect_no_attention(translator_->translate("a b c", beam));
  for (const Translation& t : translator_->translate_batch({"a b", "c d e f"}, {}))
    expect_no_attention(t);
  const Translation forced = translator_->force_decode("a b c", "d e");
  expect_no_attention(forced);
  EXPECT_EQ(forced.tokens.size(), 3u);  // d e </s>
}

TEST_F(NoAttentionModel, StepsShowCandidatesButNoAttentionRow) {
  const auto session = translator_->start("a b c", 4);
  const Step& step = session->step();
  EXPECT_TRUE(step.attention.empty());
  EXPECT_EQ(step.candidates.size(), 4u);
  EXPECT_FLOAT_EQ(step.entropy, 0.0f);
  expect_no_attention(session->translation());
}

TEST_F(NoAttentionModel, CorpusMeasuresHaveBleuButNoAttentionFiguresAndAlignmentIsRefused) {
  const CorpusEvaluation e =
      evaluate_corpus(*translator_, {"a b c", "d e"}, {"a b c", "d e"}, TranslationOptions{});
  EXPECT_FALSE(e.has_attention);
  EXPECT_EQ(e.attention.steps, 0u);
  EXPECT_EQ(e.sentences.size(), 2u);
  EXPECT_GT(e.bleu.hypothesis_length, 0);
  EXPECT_THROW(attention_over_words(*translator_, "a b", "c d"), std::invalid_argument);
}

TEST(NoAttention, AttentionModelsSayTheyHaveAttention) {
  const Translator additive(testing::random_model_file("additive"));
  EXPECT_TRUE(additive.info().has_attention);
  const Translation t = additive.translate("a b c");
  EXPECT_TRUE(t.has_attention);
  EXPECT_EQ(t.attention.size(), t.tokens.size());
}

}  // namespace
}  // namespace attnscope
