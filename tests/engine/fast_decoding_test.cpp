// The batch-1 decoding path (matrix-vector products, half-precision output matrix) must give
// the tokens and, up to summation order, the probabilities of the general batched path.
#include <gtest/gtest.h>

#include "decode/search.h"
#include "engine/test_models.h"
#include "io/checkpoint.h"
#include "model/decoder.h"
#include "ops/half_matrix.h"
#include "ops/int8_matrix.h"

namespace attnscope {
namespace {

TEST(HalfMatrix, MultipliesLikeFloatOnHalfExactWeights) {
  torch::manual_seed(7);
  // 77 columns: every kernel's vector loop (16 or 32 columns) and its remainder.
  const torch::Tensor weight = torch::randn({301, 77}).to(torch::kHalf).to(torch::kFloat);
  ASSERT_TRUE(HalfMatrix::is_exact_in_half(weight));
  EXPECT_FALSE(HalfMatrix::is_exact_in_half(torch::full({2, 2}, 0.1f)));  // 0.1 is not a half
  const torch::Tensor x = torch::randn({77}), bias = torch::randn({301});
  const torch::Tensor expected = torch::addmv(bias, weight, x);
  const HalfMatrix matrix(weight);
  // Every path this CPU has (a path it lacks falls back to the best below it); the portable
  // loop runs anywhere.
  for (KernelIsa isa : {KernelIsa::kPortable, KernelIsa::kAvx2, KernelIsa::kAvx512})
    EXPECT_TRUE(torch::allclose(matrix.multiply_with(isa, x, bias), expected, 1e-5, 1e-5))
        << kernel_isa_name(isa);
  EXPECT_TRUE(torch::allclose(matrix.multiply(x, bias), expected, 1e-5, 1e-5));
}

TEST(Int8Matrix, RoundsEachRowToItsOwnStepsAndMultipliesTheRoundedWeights) {
  torch::manual_seed(9);
  // Rows of very different magnitudes (a scale per row keeps the small ones' precision), an
  // all-zero row, and 77 columns for every kernel's vector loop and remainder.
  torch::Tensor weight = torch::randn({301, 77}) * torch::logspace(-3, 1, 301).unsqueeze(1);
  weight[5].zero_();
  const Int8Matrix matrix(weight);
  const torch::Tensor rounded = matrix.dequantized();
  const torch::Tensor step = weight.abs().amax(1, true) / 127;
  // Every weight within half a step of its row's scale; the row's largest is exact.
  EXPECT_TRUE((rounded - weight).abs().le(step / 2 + 1e-7).all().item<bool>());
  EXPECT_TRUE(torch::allclose(rounded.abs().amax(1), weight.abs().amax(1), 1e-6, 1e-9));
  EXPECT_TRUE(rounded[5].eq(0).all().item<bool>());
  EXPECT_FALSE(torch::equal(rounded, weight));  // it does round
  const torch::Tensor x = torch::randn({77}), bias = torch::randn({301});
  const torch::Tensor expected = torch::addmv(bias, rounded, x);
  for (KernelIsa isa : {KernelIsa::kPortable, KernelIsa::kAvx2, KernelIsa::kAvx512})
    EXPECT_TRUE(torch::allclose(matrix.multiply_with(isa, x, bias), expected, 1e-5, 1e-5))
        << kernel_isa_name(isa);
  // Close to the product of the unrounded weights: 1% of its spread.
  const torch::Tensor exact = torch::addmv(bias, weight, x);
  EXPECT_LT((matrix.multiply(x, bias) - exact).abs().max().item<float>(),
            0.01f * exact.abs().max().item<float>());
}

// Tied or direct output layer, plain or conditional GRU decoder.
struct DecoderShape {
  bool tied_readout;
  const char* decoder;
};

void PrintTo(const DecoderShape& shape, std::ostream* out) {
  *out << (shape.tied_readout ? "tied_" : "direct_") << shape.decoder;
}

class FastDecoding : public ::testing::TestWithParam<DecoderShape> {};

// A model stored in half precision, as every trained model file is: the trained test model, or
// for another shape random weights rounded to half precision.
Seq2Seq model_of_shape(const DecoderShape& shape) {
  Checkpoint checkpoint = load_checkpoint(testing::copy_model("additive"));
  checkpoint.config.tied_readout = shape.tied_readout;
  checkpoint.config.decoder = shape.decoder;
  Seq2Seq model(checkpoint.config);
  if (shape.tied_readout && checkpoint.config.decoder == kGruDecoder) {
    load_parameters(*model, checkpoint, "copy model");
  } else {
    torch::NoGradGuard no_grad;
    torch::manual_seed(8);
    for (auto& p : model->parameters()) p.copy_((p * 3).to(torch::kHalf).to(torch::kFloat));
  }
  model->eval();
  return model;
}

TEST_P(FastDecoding, SameTokensAsTheBatchedPath) {
  Seq2Seq model = model_of_shape(GetParam());
  c10::InferenceMode inference;
  const std::vector<std::vector<int64_t>> sources = {{4, 5, 6, 7, 3}, {8, 9, 10, 3}, {11, 4, 3}};
  const std::vector<int> limits = {12, 12, 12};
  const auto batched = greedy_search(model, sources, limits);  // B = 3: general path
  const auto beam_before = beam_search(model, sources[0], 3, 1.0f, 12);
  model->prepare_inference();
  // Beam search's first step has one row but no per-sentence context logits: the fallback.
  const auto beam_after = beam_search(model, sources[0], 3, 1.0f, 12);
  ASSERT_EQ(beam_after.size(), beam_before.size());
  for (size_t i = 0; i < beam_after.size(); ++i)
    EXPECT_EQ(beam_after[i].tokens, beam_before[i].tokens);
  for (size_t i = 0; i < sources.size(); ++i) {
    const auto single = greedy_search(model, {sources[i]}, {limits[i]});  // B = 1: fast path
    EXPECT_EQ(single[0].tokens, batched[i].tokens) << i;
    for (size_t j = 0; j < single[0].probabilities.size(); ++j)
      EXPECT_NEAR(single[0].probabilities[j], batched[i].probabilities[j], 1e-4);
  }
}

TEST_P(FastDecoding, Int8OutputWeightsKeepTheTokensAndNearlyTheProbabilities) {
  // Greedy translations with the output matrix in 8-bit integers (its largest logits computed
  // again from the stored weights): the same tokens as the stored weights give on the same
  // one-sentence path, probabilities within 2%, and not all equal (the int8 matrix is used).
  Seq2Seq model = model_of_shape(GetParam());
  c10::InferenceMode inference;
  const std::vector<std::vector<int64_t>> sources = {{4, 5, 6, 7, 3}, {8, 9, 10, 3}, {11, 4, 3}};
  model->prepare_inference();
  std::vector<Hypothesis> stored;
  for (const auto& source : sources) stored.push_back(greedy_search(model, {source}, {12})[0]);
  model->prepare_inference(OutputWeights::kInt8);
  bool differs = false;
  for (size_t i = 0; i < sources.size(); ++i) {
    const Hypothesis int8 = greedy_search(model, {sources[i]}, {12})[0];
    ASSERT_EQ(int8.tokens, stored[i].tokens) << i;
    for (size_t j = 0; j < int8.probabilities.size(); ++j) {
      EXPECT_NEAR(int8.probabilities[j], stored[i].probabilities[j], 0.02) << i << " " << j;
      differs = differs || int8.probabilities[j] != stored[i].probabilities[j];
    }
  }
  EXPECT_TRUE(differs || !HalfMatrix::has_vector_kernel()) << "the int8 matrix was not used";
}

TEST_P(FastDecoding, TwoPassLogitsKeepTheBatchedTokensAndNearlyTheProbabilities) {
  // Batched greedy search with its logits made in bfloat16 first, the 8 largest again in
  // float32: the same tokens as float32's and probabilities within 1%, not all equal. A vocabulary
  // of 600, so that most logits are bfloat16's; random weights in half precision, as stored.
  if (!has_native_bfloat16()) GTEST_SKIP() << "bfloat16 products are not native on this CPU";
  ModelConfig config = testing::tiny_config("additive", 12, 600);
  config.tied_readout = GetParam().tied_readout;
  config.decoder = GetParam().decoder;
  Seq2Seq model(config);
  {
    torch::NoGradGuard no_grad;
    torch::manual_seed(11);
    for (auto& p : model->parameters()) p.copy_((p * 3).to(torch::kHalf).to(torch::kFloat));
  }
  model->eval();
  c10::InferenceMode inference;
  std::vector<std::vector<int64_t>> sources;
  for (int64_t i = 0; i < 20; ++i) sources.push_back({4 + i % 8, 5 + i % 5, 4 + i % 3, 3});
  const std::vector<int> limits(sources.size(), 10);
  model->prepare_inference(OutputWeights::kFloat32);
  const auto float32 = greedy_search(model, sources, limits);
  {
    TwoPassLogitsScope two_pass;  // no bfloat16 copy with kFloat32: the same bits
    const auto again = greedy_search(model, sources, limits);
    for (size_t i = 0; i < sources.size(); ++i)
      EXPECT_EQ(again[i].probabilities, float32[i].probabilities) << i;
  }
  model->prepare_inference();
  const auto outside_scope = greedy_search(model, sources, limits);
  TwoPassLogitsScope two_pass;
  const auto two_passes = greedy_search(model, sources, limits);
  bool differs = false;
  for (size_t i = 0; i < sources.size(); ++i) {
    EXPECT_EQ(outside_scope[i].probabilities, float32[i].probabilities) << i;
    ASSERT_EQ(two_passes[i].tokens, float32[i].tokens) << i;
    for (size_t j = 0; j < two_passes[i].probabilities.size(); ++j) {
      EXPECT_NEAR(two_passes[i].probabilities[j], float32[i].probabilities[j],
                  0.01 * float32[i].probabilities[j])
          << i << " " << j;
      differs = differs || two_passes[i].probabilities[j] != float32[i].probabilities[j];
    }
  }
  EXPECT_TRUE(differs) << "the bfloat16 pass was not used";
}

INSTANTIATE_TEST_SUITE_P(TiedAndDirectOutput, FastDecoding,
                         ::testing::Values(DecoderShape{true, kGruDecoder},
                                           DecoderShape{false, kGruDecoder},
                                           DecoderShape{true, kConditionalGruDecoder},
                                           DecoderShape{false, kConditionalGruDecoder}));

}  // namespace
}  // namespace attnscope
