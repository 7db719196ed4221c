// The Transformer through the engine's one decoding interface: cached steps against the full
// pass, and the decoding contracts the RNN models are held to (decoding_test.cpp).
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "decode/search.h"
#include "decode/transformer_step_model.h"
#include "decode/translator_impl.h"
#include "engine/test_models.h"
#include "engine/translation_checks.h"
#include "io/checkpoint.h"

namespace attnscope {
namespace {

const std::vector<std::string> kTransformerInputs = {"a b c d", "j i h g f e d c", "e e f", "b"};

Transformer random_transformer(uint64_t seed) {
  torch::manual_seed(seed);
  Transformer model(testing::tiny_transformer_config(14, 14));
  model->eval();
  return model;
}

double largest_difference(const torch::Tensor& a, const torch::Tensor& b) {
  return (a - b).abs().max().item<double>();
}

// Feeds `targets` [B,T] one position at a time; returns the steps' log-probs [B,T,V] and
// last-layer mean cross-attention [B,T,S].
std::pair<torch::Tensor, torch::Tensor> stepwise(TransformerStepModel& model,
                                                 const std::vector<std::vector<int64_t>>& sources,
                                                 const torch::Tensor& targets) {
  std::shared_ptr<const DecoderRows> rows = model.encode(sources);
  std::vector<torch::Tensor> log_probs, attention;
  for (int64_t t = 0; t < targets.size(1); ++t) {
    StepOutput out = model.step(*rows, targets.select(1, t).contiguous());
    log_probs.push_back(out.log_probs);
    attention.push_back(out.attention);
    rows = out.next;
  }
  return {torch::stack(log_probs, 1), torch::stack(attention, 1)};
}

TEST(TransformerDecoding, CachedStepsEqualTheFullPass) {
  Transformer model = random_transformer(11);
  TransformerStepModel steps(model);
  c10::InferenceMode inference;
  const std::vector<std::vector<int64_t>> sources = {{4, 5, 6, 7, 8, 3}, {9, 10, 3}};
  const torch::Tensor source =
      torch::tensor({{4, 5, 6, 7, 8, 3}, {9, 10, 3, 0, 0, 0}}, torch::kLong);
  const torch::Tensor lengths = torch::tensor({6, 3}, torch::kLong);
  const torch::Tensor targets =
      torch::tensor({{2, 4, 11, 5, 12, 6, 13, 7}, {2, 9, 9, 10, 4, 4, 5, 3}}, torch::kLong);
  TransformerAttention attention;
  const torch::Tensor full = model->forward(source, lengths, targets, &attention);
  const auto [log_probs, cross] = stepwise(steps, sources, targets);
  const double difference = largest_difference(log_probs, full);
  EXPECT_LT(difference, 1e-5);
  EXPECT_LT(largest_difference(cross, attention.cross.back().mean(1)), 1e-5);
  std::cout << "[ figures  ] cached steps vs full pass: max |Δ log p| = " << difference << "\n";
}

TEST(TransformerDecoding, StepReportsEveryLayersCrossAttentionHeads) {
  Transformer model = random_transformer(12);
  TransformerStepModel steps(model);
  c10::InferenceMode inference;
  EXPECT_EQ(steps.layers(), 2);
  EXPECT_EQ(steps.heads(), 4);
  const StepOutput out =
      steps.step(*steps.encode({{4, 5, 3}, {6, 3}}), torch::full({2}, steps.bos(), torch::kLong));
  EXPECT_EQ(out.heads.sizes(), (std::vector<int64_t>{2, 8, 3}));
  EXPECT_EQ(out.attention.sizes(), (std::vector<int64_t>{2, 3}));
  // The model's attention is the mean of the last layer's heads; the padding has none.
  EXPECT_LT(largest_difference(out.attention, out.heads.narrow(1, 4, 4).mean(1)), 1e-6);
  EXPECT_EQ(out.heads[1].select(1, 2).abs().max().item<float>(), 0.0f);
}

TEST(TransformerDecoding, SelectedRowsContinueTheirOwnHypotheses) {
  Transformer model = random_transformer(13);
  TransformerStepModel steps(model);
  c10::InferenceMode inference;
  const std::vector<int64_t> source = {4, 5, 6, 3};
  // Three hypotheses of one source (the memory is shared); reorder them as a beam does.
  std::shared_ptr<const DecoderRows> rows = steps.select(*steps.encode({source}), {0, 0, 0});
  rows = steps.step(*rows, torch::tensor({2, 2, 2}, torch::kLong)).next;
  rows = steps.step(*rows, torch::tensor({7, 8, 9}, torch::kLong)).next;
  rows = steps.select(*rows, {2, 0, 2});
  const StepOutput out = steps.step(*rows, torch::tensor({10, 11, 12}, torch::kLong));
  const std::vector<std::vector<int64_t>> alone = {{2, 9, 10}, {2, 7, 11}, {2, 9, 12}};
  for (size_t r = 0; r < alone.size(); ++r) {
    const auto [log_probs, cross] =
        stepwise(steps, {source}, torch::tensor(alone[r], torch::kLong).unsqueeze(0));
    EXPECT_LT(largest_difference(out.log_probs[r], log_probs[0][2]), 1e-5) << "row " << r;
  }
}

class TransformerTranslation : public ::testing::Test {
 protected:
  static const Translator& translator() {
    static const Translator t(testing::random_transformer_file());
    return t;
  }
};

TEST_F(TransformerTranslation, ModelInfoNamesTheArchitecture) {
  const ModelInfo& info = translator().info();
  EXPECT_EQ(info.name, "transformer");
  EXPECT_EQ(info.config.arch, kTransformerArch);
  EXPECT_EQ(info.attention_layers, 2);
  EXPECT_EQ(info.attention_heads, 4);
}

TEST_F(TransformerTranslation, GreedyKeepsTheAttentionContractWithEveryHead) {
  for (const auto& s : kTransformerInputs) {
    const Translation t = translator().translate(s);
    EXPECT_EQ(t.probabilities.size(), t.tokens.size());
    testing::expect_attention_contract(t);
    ASSERT_EQ(t.head_attention.size(), t.tokens.size()) << s;
    EXPECT_EQ(t.layers(), 2);
    EXPECT_EQ(t.heads(), 4);
    for (size_t i = 0; i < t.tokens.size(); ++i) {
      const std::vector<float> mean = t.head_attention[i].row(1, -1);
      for (size_t j = 0; j < mean.size(); ++j) EXPECT_NEAR(mean[j], t.attention[i][j], 1e-5);
    }
  }
}

TEST_F(TransformerTranslation, BatchedGreedyEqualsOneByOne) {
  const auto batch = translator().translate_batch(kTransformerInputs);
  for (size_t i = 0; i < kTransformerInputs.size(); ++i) {
    const Translation alone = translator().translate(kTransformerInputs[i]);
    EXPECT_EQ(batch[i].tokens, alone.tokens) << kTransformerInputs[i];
    ASSERT_EQ(batch[i].probabilities.size(), alone.probabilities.size());
    for (size_t j = 0; j < alone.probabilities.size(); ++j)
      EXPECT_NEAR(batch[i].probabilities[j], alone.probabilities[j], 1e-5) << kTransformerInputs[i];
  }
}

TEST_F(TransformerTranslation, BeamSearchRanksItsHypothesesAndKeepsTheContract) {
  TranslationOptions options;
  options.beam_size = 4;
  const auto nbest = translator().translate_nbest("a b c d e", options);
  ASSERT_FALSE(nbest.empty());
  for (size_t i = 1; i < nbest.size(); ++i) EXPECT_GE(nbest[i - 1].score, nbest[i].score);
  for (const auto& t : nbest) testing::expect_attention_contract(t);
  BeamTree tree;
  const Translation best = translator().translate_with_tree("a b c d e", options, tree);
  EXPECT_EQ(best.tokens, nbest.front().tokens);
  EXPECT_GT(tree.nodes.size(), 1u);
}

TEST(TransformerDecoding, ForcingTheGreedyOutputGivesItsProbabilities) {
  // By token ids: a random model's outputs hold special tokens, which text would not carry.
  Transformer model = random_transformer(14);
  TransformerStepModel steps(model);
  c10::InferenceMode inference;
  for (const std::vector<int64_t>& source :
       std::vector<std::vector<int64_t>>{{4, 5, 6, 3}, {13, 12, 11, 10, 9, 3}, {7, 3}}) {
    const Hypothesis greedy = greedy_search(steps, {source}, {12}).front();
    const Hypothesis forced = forced_decode(steps, source, greedy.tokens);
    EXPECT_EQ(forced.tokens, greedy.tokens);
    for (size_t j = 0; j < greedy.probabilities.size(); ++j)
      EXPECT_NEAR(forced.probabilities[j], greedy.probabilities[j], 1e-5);
    EXPECT_EQ(forced.attention, greedy.attention);
  }
}

TEST_F(TransformerTranslation, ForcedDecodingKeepsTheAttentionContract) {
  const Translation forced = translator().force_decode("a b c", "c b a");
  EXPECT_EQ(forced.tokens, (std::vector<std::string>{"c", "b", "a", "</s>"}));
  testing::expect_attention_contract(forced);
  EXPECT_EQ(forced.head_attention.size(), 4u);
}

TEST_F(TransformerTranslation, StepwiseSessionEqualsGreedyAndRewinds) {
  for (const auto& s : kTransformerInputs) {
    const Translation greedy = translator().translate(s);
    auto session = translator().start(s, 3);
    while (!session->finished()) session->step();
    const Translation stepwise = session->translation();
    EXPECT_EQ(stepwise.tokens, greedy.tokens) << s;
    EXPECT_EQ(stepwise.attention, greedy.attention) << s;
  }
  auto session = translator().start("a b c", 4);
  const Step first = session->step();
  EXPECT_EQ(first.heads.layers, 2);
  session->force("j");
  session->rewind(1);
  EXPECT_EQ(session->steps().size(), 1u);
  const Step again = session->step();
  EXPECT_EQ(again.token, translator().translate("a b c").tokens.at(1));
}

TEST_F(TransformerTranslation, SavedModelTranslatesAsTheModelInMemory) {
  // random_transformer_file() saved the model of seed 5 in float32.
  torch::manual_seed(5);
  Transformer model(testing::tiny_transformer_config(14, 14));
  model->eval();
  TransformerStepModel steps(model);
  c10::InferenceMode inference;
  const std::vector<std::vector<int64_t>> sources = {{4, 5, 6, 7, 3}, {13, 12, 3}};
  // The translator's limits: 2 · source tokens + 10.
  const std::vector<Hypothesis> in_memory = greedy_search(steps, sources, {20, 16});
  const std::vector<Translation> loaded = translator().translate_batch({"a b c d", "j i"});
  for (size_t i = 0; i < sources.size(); ++i) {
    ASSERT_EQ(loaded[i].tokens.size(), in_memory[i].tokens.size());
    for (size_t j = 0; j < loaded[i].tokens.size(); ++j) {
      EXPECT_EQ(translator().impl().tokens.target_id(loaded[i].tokens[j]), in_memory[i].tokens[j]);
      EXPECT_FLOAT_EQ(loaded[i].probabilities[j], in_memory[i].probabilities[j]);
    }
  }
}

TEST_F(TransformerTranslation, SharedEmbeddingsLoadAndTranslate) {
  const Translator shared(testing::random_transformer_file(/*shared_embeddings=*/true));
  EXPECT_LT(shared.info().parameters, translator().info().parameters);
  testing::expect_attention_contract(shared.translate("a b c"));
}

TEST_F(TransformerTranslation, SelfAttentionOfATranslation) {
  const Translation t = translator().translate("a b c d");
  const SelfAttention self = translator().self_attention(t);
  ASSERT_FALSE(self.empty());
  const int S = static_cast<int>(t.source.tokens.size()), T = static_cast<int>(t.tokens.size());
  EXPECT_EQ(self.layers, 2);
  EXPECT_EQ(self.heads, 4);
  EXPECT_EQ(self.source_length, S);
  EXPECT_EQ(self.target_length, T);
  EXPECT_EQ(self.encoder.size(), static_cast<size_t>(2 * 4 * S * S));
  EXPECT_EQ(self.decoder.size(), static_cast<size_t>(2 * 4 * T * T));
  ASSERT_EQ(self.decoder_inputs.size(), static_cast<size_t>(T));
  EXPECT_EQ(self.decoder_inputs.front(), "<s>");
  for (int layer = 0; layer < 2; ++layer)
    for (int head = -1; head < 4; ++head) {
      for (const auto& row : self.encoder_matrix(layer, head))
        EXPECT_NEAR(std::accumulate(row.begin(), row.end(), 0.0), 1.0, 1e-5);
      const auto decoder = self.decoder_matrix(layer, head);
      for (int q = 0; q < T; ++q) {
        EXPECT_NEAR(std::accumulate(decoder[q].begin(), decoder[q].end(), 0.0), 1.0, 1e-5);
        for (int k = q + 1; k < T; ++k) EXPECT_EQ(decoder[q][k], 0.0f) << q << " " << k;
      }
    }
}

TEST_F(TransformerTranslation, SelfAttentionOfAForcedTranslation) {
  const Translation forced = translator().force_decode("a b c", "c b a");
  const SelfAttention self = translator().self_attention(forced);
  EXPECT_EQ(self.target_length, 4);
  EXPECT_EQ(self.decoder_inputs, (std::vector<std::string>{"<s>", "c", "b", "a"}));
}

TEST(SelfAttention, EmptyForAModelWithoutIt) {
  const Translator rnn(testing::random_model_file());
  EXPECT_TRUE(rnn.self_attention(rnn.translate("a b")).empty());
}

}  // namespace
}  // namespace attnscope
