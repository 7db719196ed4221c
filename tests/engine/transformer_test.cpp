// The Transformer's network: shapes, masks, its loss and its checkpoint keys.
#include "model/transformer.h"

#include <attnscope/vocabulary.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>

#include "engine/test_models.h"
#include "io/checkpoint.h"

namespace attnscope {
namespace {

// Two sources, the second padded; two targets, the second padded.
struct TransformerBatch {
  torch::Tensor source = torch::tensor({{4, 5, 6, 7, 3}, {8, 9, 3, 0, 0}}, torch::kLong);
  torch::Tensor lengths = torch::tensor({5, 3}, torch::kLong);
  torch::Tensor target = torch::tensor({{2, 4, 5, 6, 3}, {2, 7, 3, 0, 0}}, torch::kLong);
};

Transformer tiny_transformer(uint64_t seed, bool shared = false) {
  torch::manual_seed(seed);
  ModelConfig config = testing::tiny_transformer_config(14, 14);
  config.shared_embeddings = shared;
  Transformer model(config);
  model->eval();
  return model;
}

double max_difference(const torch::Tensor& a, const torch::Tensor& b) {
  return (a - b).abs().max().item<double>();
}

TEST(Transformer, ShapesOfOutputsAndEveryAttention) {
  Transformer model = tiny_transformer(1);
  torch::NoGradGuard no_grad;
  TransformerBatch b;
  TransformerAttention attention;
  const torch::Tensor log_probs = model->forward(b.source, b.lengths, b.target, &attention);
  EXPECT_EQ(log_probs.sizes(), (std::vector<int64_t>{2, 5, 14}));
  EXPECT_LT(max_difference(log_probs.exp().sum(-1), torch::ones({2, 5})), 1e-5);
  ASSERT_EQ(attention.encoder.size(), 2u);
  ASSERT_EQ(attention.decoder.size(), 2u);
  ASSERT_EQ(attention.cross.size(), 2u);
  for (int l = 0; l < 2; ++l) {
    EXPECT_EQ(attention.encoder[l].sizes(), (std::vector<int64_t>{2, 4, 5, 5}));
    EXPECT_EQ(attention.decoder[l].sizes(), (std::vector<int64_t>{2, 4, 5, 5}));
    EXPECT_EQ(attention.cross[l].sizes(), (std::vector<int64_t>{2, 4, 5, 5}));
  }
}

TEST(Transformer, ChangingATargetTokenChangesNoEarlierOutput) {
  Transformer model = tiny_transformer(2);
  torch::NoGradGuard no_grad;
  TransformerBatch b;
  const torch::Tensor before = model->forward(b.source, b.lengths, b.target);
  for (int64_t j = 1; j < 5; ++j) {
    torch::Tensor changed = b.target.clone();
    changed[0][j] = changed[0][j].item<int64_t>() == 9 ? 10 : 9;
    const torch::Tensor after = model->forward(b.source, b.lengths, changed);
    EXPECT_LT(max_difference(after[0].narrow(0, 0, j), before[0].narrow(0, 0, j)), 1e-6)
        << "token " << j;
    EXPECT_GT(max_difference(after[0][j], before[0][j]), 1e-4) << "token " << j;
    EXPECT_LT(max_difference(after[1], before[1]), 1e-6) << "the other row, token " << j;
  }
}

TEST(Transformer, PaddingChangesNoRealRow) {
  Transformer model = tiny_transformer(3);
  torch::NoGradGuard no_grad;
  TransformerBatch b;
  const torch::Tensor batch = model->forward(b.source, b.lengths, b.target);
  const torch::Tensor alone =
      model->forward(b.source[1].narrow(0, 0, 3).unsqueeze(0), torch::tensor({3}, torch::kLong),
                     b.target[1].narrow(0, 0, 3).unsqueeze(0));
  EXPECT_LT(max_difference(batch[1].narrow(0, 0, 3), alone[0]), 1e-5);
}

TEST(Transformer, AttentionRowsSumToOneOverRealPositionsAndZeroElsewhere) {
  Transformer model = tiny_transformer(4);
  torch::NoGradGuard no_grad;
  TransformerBatch b;
  TransformerAttention attention;
  model->forward(b.source, b.lengths, b.target, &attention);
  const torch::Tensor padding = (b.source == Vocabulary::kPad).view({2, 1, 1, 5});
  const torch::Tensor future = torch::ones({5, 5}, torch::kBool).triu(1);
  for (int l = 0; l < 2; ++l) {
    for (const torch::Tensor& a : {attention.encoder[l], attention.cross[l]}) {
      EXPECT_LT(max_difference(a.sum(-1), torch::ones({2, 4, 5})), 1e-5) << "layer " << l;
      EXPECT_EQ(a.masked_select(padding.expand_as(a)).abs().max().item<float>(), 0.0f);
    }
    const torch::Tensor& d = attention.decoder[l];
    EXPECT_LT(max_difference(d.sum(-1), torch::ones({2, 4, 5})), 1e-5) << "layer " << l;
    EXPECT_EQ(d.masked_select(future.expand_as(d)).abs().max().item<float>(), 0.0f);
  }
}

TEST(Transformer, LossIsLabelSmoothedCrossEntropyAtRealPositions) {
  Transformer model = tiny_transformer(5);
  TransformerBatch b;
  const torch::Tensor inputs = b.target.narrow(1, 0, 4), expected = b.target.narrow(1, 1, 4);
  const torch::Tensor loss = model->loss(b.source, b.lengths, inputs, expected, 0.1);
  const torch::Tensor log_probs = model->forward(b.source, b.lengths, inputs);
  const torch::Tensor reference =
      torch::nn::functional::cross_entropy(log_probs.reshape({-1, 14}), expected.reshape(-1),
                                           torch::nn::functional::CrossEntropyFuncOptions()
                                               .label_smoothing(0.1)
                                               .ignore_index(Vocabulary::kPad)
                                               .reduction(torch::kSum));
  EXPECT_NEAR(loss.item<double>(), reference.item<double>(), 1e-4);
}

TEST(Transformer, GradientsReachEveryParameter) {
  for (bool shared : {false, true}) {
    Transformer model = tiny_transformer(6, shared);
    model->train();
    TransformerBatch b;
    model->loss(b.source, b.lengths, b.target.narrow(1, 0, 4), b.target.narrow(1, 1, 4), 0.1)
        .backward();
    for (const auto& p : model->named_parameters()) {
      ASSERT_TRUE(p.value().grad().defined()) << p.key();
      EXPECT_GT(p.value().grad().abs().sum().item<double>(), 0.0) << p.key();
    }
  }
}

TEST(Transformer, SharedEmbeddingsAreOneTable) {
  const Transformer separate = tiny_transformer(7, false), shared = tiny_transformer(7, true);
  EXPECT_EQ(separate->parameter_count() - shared->parameter_count(), 14 * 16);
  std::vector<std::string> names;
  for (const auto& p : shared->named_parameters()) names.push_back(p.key());
  EXPECT_NE(std::find(names.begin(), names.end(), "embedding.weight"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "encoder.1.self_attention.query.weight"),
            names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "decoder.0.cross_attention.key.weight"),
            names.end());
  for (const auto& name : names) EXPECT_EQ(name.find("source_embedding"), std::string::npos);
}

TEST(Transformer, DropoutOnlyInTraining) {
  ModelConfig config = testing::tiny_transformer_config(14, 14);
  config.dropout = 0.3;
  torch::manual_seed(8);
  Transformer model(config);
  torch::NoGradGuard no_grad;
  TransformerBatch b;
  model->train();
  const torch::Tensor first = model->forward(b.source, b.lengths, b.target);
  const torch::Tensor second = model->forward(b.source, b.lengths, b.target);
  EXPECT_GT(max_difference(first, second), 1e-3);
  model->eval();
  EXPECT_EQ(max_difference(model->forward(b.source, b.lengths, b.target),
                           model->forward(b.source, b.lengths, b.target)),
            0.0);
}

TEST(Transformer, SinusoidalPositionsByHand) {
  const torch::Tensor table = sinusoidal_positions(0, 3, 4);
  EXPECT_EQ(table.sizes(), (std::vector<int64_t>{3, 4}));
  // Position p, dimensions 2i and 2i+1: sin and cos of p / 10000^(2i/4).
  for (int p = 0; p < 3; ++p) {
    EXPECT_NEAR(table[p][0].item<float>(), std::sin(p), 1e-6);
    EXPECT_NEAR(table[p][1].item<float>(), std::cos(p), 1e-6);
    EXPECT_NEAR(table[p][2].item<float>(), std::sin(p / 100.0), 1e-6);
    EXPECT_NEAR(table[p][3].item<float>(), std::cos(p / 100.0), 1e-6);
  }
  // A later start gives the same rows (the cached steps rely on it), and odd sizes work.
  EXPECT_TRUE(torch::equal(sinusoidal_positions(2, 1, 4)[0], table[2]));
  EXPECT_EQ(sinusoidal_positions(5, 2, 7).sizes(), (std::vector<int64_t>{2, 7}));
}

TEST(TransformerConfig, StoredOnlyForATransformer) {
  const nlohmann::json rnn = config_to_json(testing::tiny_config("additive"));
  for (const char* key : {"arch", "layers", "heads", "feed_forward", "shared_embeddings"})
    EXPECT_FALSE(rnn.contains(key)) << key;
  EXPECT_EQ(config_from_json(rnn).arch, kRnnArch);
  ModelConfig config = testing::tiny_transformer_config();
  config.shared_embeddings = true;
  const ModelConfig back = config_from_json(config_to_json(config));
  EXPECT_EQ(back.arch, kTransformerArch);
  EXPECT_EQ(back.layers, 2);
  EXPECT_EQ(back.heads, 4);
  EXPECT_EQ(back.feed_forward, 32);
  EXPECT_TRUE(back.shared_embeddings);
}

TEST(TransformerConfig, AFileWithABadShapeIsRefused) {
  const std::string path = testing::random_transformer_file();
  const std::string folder = testing::temporary_folder();
  const std::vector<std::pair<std::string, std::function<void(nlohmann::json&)>>> edits = {
      {"heads do not divide", [](nlohmann::json& h) { h["config"]["heads"] = 3; }},
      {"layers = 0", [](nlohmann::json& h) { h["config"]["layers"] = 0; }},
      {"arch 'lstm'", [](nlohmann::json& h) { h["config"]["arch"] = "lstm"; }},
      {"hidden size", [](nlohmann::json& h) { h["config"]["hidden"] = 32; }},
      {"attention is scaled_dot", [](nlohmann::json& h) { h["config"]["score"] = "additive"; }},
  };
  for (const auto& [expected, edit] : edits) {
    const std::string edited = folder + "/edited.attnmodel";
    std::ofstream(edited, std::ios::binary) << testing::with_header(path, edit);
    EXPECT_NE(testing::model_load_error(edited).find(expected), std::string::npos)
        << testing::model_load_error(edited);
  }
}

}  // namespace
}  // namespace attnscope
