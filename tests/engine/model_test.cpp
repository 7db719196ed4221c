#include <attnscope/model_catalog.h>
#include <attnscope/vocabulary.h>
#include <gtest/gtest.h>

#include "engine/test_models.h"
#include "model/seq2seq.h"

namespace attnscope {
namespace {

struct TinyBatch {
  torch::Tensor source = torch::tensor({{4, 5, 6, 7, 3}, {8, 9, 3, 0, 0}}, torch::kLong);
  torch::Tensor lengths = torch::tensor({5, 3}, torch::kLong);
  torch::Tensor target = torch::tensor({{2, 4, 5, 6, 3}, {2, 7, 3, 0, 0}}, torch::kLong);
};

// Every score function with each decoder (model_config.h: the plain and the conditional GRU).
class ModelPerScore : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  static ModelConfig config() {
    ModelConfig c = testing::tiny_config(std::get<0>(GetParam()));
    c.decoder = std::get<1>(GetParam());
    return c;
  }
};

TEST_P(ModelPerScore, GradientsReachEveryParameter) {
  torch::manual_seed(2);
  Seq2Seq model(config());
  TinyBatch b;
  const torch::Tensor logits = model->forward(b.source, b.lengths, b.target);
  torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(-1)}),
                                       b.target.roll(-1, 1).reshape(-1))
      .backward();
  for (const auto& p : model->named_parameters()) {
    ASSERT_TRUE(p.value().grad().defined()) << p.key();
    EXPECT_GT(p.value().grad().abs().sum().item<double>(), 0.0) << p.key();
  }
}

TEST_P(ModelPerScore, TeacherForcingEqualsStepByStep) {
  // The training path (input gates and output layer batched over time) must compute what the
  // decoding path computes one step at a time.
  torch::manual_seed(3);
  Seq2Seq model(config());
  model->eval();
  torch::NoGradGuard no_grad;
  TinyBatch b;
  torch::Tensor attention;
  const torch::Tensor batched = model->forward(b.source, b.lengths, b.target, &attention);
  EncodedBatch encoded = model->encode(b.source, b.lengths);
  torch::Tensor state = encoded.initial_state;
  for (int64_t t = 0; t < b.target.size(1); ++t) {
    DecoderStep step = model->step(encoded.context, state, b.target.select(1, t));
    EXPECT_TRUE(torch::allclose(step.logits, batched.select(1, t), 1e-4, 1e-5)) << "step " << t;
    EXPECT_TRUE(torch::allclose(step.attention, attention.select(1, t), 1e-5, 1e-6))
        << "step " << t;
    state = step.state;
  }
}

TEST_P(ModelPerScore, ASentenceDoesNotDependOnItsBatchMates) {
  torch::manual_seed(4);
  Seq2Seq model(config());
  model->eval();
  torch::NoGradGuard no_grad;
  TinyBatch b;
  const torch::Tensor together = model->forward(b.source, b.lengths, b.target);
  const torch::Tensor alone = model->forward(b.source.narrow(0, 1, 1).narrow(1, 0, 3),
                                             b.lengths.narrow(0, 1, 1), b.target.narrow(0, 1, 1));
  EXPECT_TRUE(torch::allclose(together.narrow(0, 1, 1), alone, 1e-4, 1e-5));
}

INSTANTIATE_TEST_SUITE_P(AllScoresAndDecoders, ModelPerScore,
                         ::testing::Combine(::testing::ValuesIn(score_function_names()),
                                            ::testing::Values(kGruDecoder, kConditionalGruDecoder)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

TEST(Model, TheConditionalGruHasTwoDecoderGrusTheFirstFedTheEmbedding) {
  ModelConfig config = testing::tiny_config("additive");
  config.decoder = kConditionalGruDecoder;
  const auto params = Seq2Seq(config)->named_parameters();
  ASSERT_TRUE(params.contains("decoder.query_cell.weight_ih"));
  EXPECT_EQ(params["decoder.query_cell.weight_ih"].sizes(),
            (std::vector<int64_t>{3 * config.hidden, config.embedding}));
  EXPECT_EQ(params["decoder.cell.weight_ih"].sizes(),
            (std::vector<int64_t>{3 * config.hidden, 2 * config.hidden}));
  EXPECT_FALSE(Seq2Seq(testing::tiny_config("additive"))
                   ->named_parameters()
                   .contains("decoder.query_cell.weight_ih"));
}

// What makes the conditional GRU: its attention is queried after reading the previous token, so
// two steps from the same state with different previous tokens attend differently; the plain
// GRU queries with the previous state alone.
TEST(Model, OnlyTheConditionalGrusAttentionReadsThePreviousToken) {
  for (const char* decoder : {kGruDecoder, kConditionalGruDecoder}) {
    torch::manual_seed(6);
    ModelConfig config = testing::tiny_config("additive");
    config.decoder = decoder;
    Seq2Seq model(config);
    model->eval();
    torch::NoGradGuard no_grad;
    TinyBatch b;
    EncodedBatch encoded = model->encode(b.source, b.lengths);
    const torch::Tensor after_4 =
        model->step(encoded.context, encoded.initial_state, torch::tensor({4, 4})).attention;
    const torch::Tensor after_9 =
        model->step(encoded.context, encoded.initial_state, torch::tensor({9, 9})).attention;
    const double difference = (after_4 - after_9).abs().max().item<double>();
    if (std::string(decoder) == kGruDecoder)
      EXPECT_EQ(difference, 0.0);
    else
      EXPECT_GT(difference, 1e-6);  // an untrained model attends almost uniformly
  }
}

TEST(Model, DirectOutputLayerHasTheReferenceShape) {
  ModelConfig config = testing::tiny_config("additive");
  config.tied_readout = false;
  Seq2Seq model(config);
  const auto params = model->named_parameters();
  ASSERT_TRUE(params.contains("decoder.output.weight"));
  EXPECT_EQ(params["decoder.output.weight"].sizes(),
            (std::vector<int64_t>{config.target_vocab, 3 * config.hidden + config.embedding}));
}

}  // namespace
}  // namespace attnscope
