// The batch-1 decoding path (matrix-vector products, half-precision output matrix) must give
// the tokens and, up to summation order, the probabilities of the general batched path.
#include <gtest/gtest.h>

#include "decode/search.h"
#include "engine/test_models.h"
#include "io/checkpoint.h"
#include "ops/half_matrix.h"

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

// Tied or direct output layer, plain or conditional GRU decoder.
struct DecoderShape {
  bool tied_readout;
  const char* decoder;
};

void PrintTo(const DecoderShape& shape, std::ostream* out) {
  *out << (shape.tied_readout ? "tied_" : "direct_") << shape.decoder;
}

class FastDecoding : public ::testing::TestWithParam<DecoderShape> {};

TEST_P(FastDecoding, SameTokensAsTheBatchedPath) {
  // A model stored in half precision, as every trained model file is.
  Checkpoint checkpoint = load_checkpoint(testing::copy_model("additive"));
  checkpoint.config.tied_readout = GetParam().tied_readout;
  checkpoint.config.decoder = GetParam().decoder;
  Seq2Seq model(checkpoint.config);
  if (GetParam().tied_readout && checkpoint.config.decoder == kGruDecoder) {
    load_parameters(*model, checkpoint, "copy model");
  } else {  // another shape than the trained model's: random weights, rounded to half precision
    torch::NoGradGuard no_grad;
    torch::manual_seed(8);
    for (auto& p : model->parameters()) p.copy_((p * 3).to(torch::kHalf).to(torch::kFloat));
  }
  model->eval();
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

INSTANTIATE_TEST_SUITE_P(TiedAndDirectOutput, FastDecoding,
                         ::testing::Values(DecoderShape{true, kGruDecoder},
                                           DecoderShape{false, kGruDecoder},
                                           DecoderShape{true, kConditionalGruDecoder},
                                           DecoderShape{false, kConditionalGruDecoder}));

}  // namespace
}  // namespace attnscope
