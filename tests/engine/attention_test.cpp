// The attention contract for every score function: rows sum to 1, padding gets exactly 0.
#include "model/attention.h"

#include <attnscope/model_catalog.h>
#include <gtest/gtest.h>

#include "model/seq2seq.h"

namespace attnscope {
namespace {

class AttentionContract : public ::testing::TestWithParam<std::string> {};

TEST_P(AttentionContract, RowsSumToOneAndPaddingGetsZero) {
  torch::manual_seed(1);
  Attention attention(GetParam(), ScoreDimensions{8, 4, 6, 10});
  torch::NoGradGuard no_grad;
  const torch::Tensor states = torch::randn({3, 5, 8});
  const torch::Tensor mask = length_mask(torch::tensor({5, 2, 1}, torch::kLong), 5);
  const torch::Tensor weights =
      attention->weights(attention->keys(states), mask, torch::randn({3, 4}));
  ASSERT_EQ(weights.sizes(), (std::vector<int64_t>{3, 5}));
  EXPECT_TRUE(torch::allclose(weights.sum(1), torch::ones({3}), 1e-6, 1e-6));
  EXPECT_TRUE(torch::all(weights.masked_select(mask.logical_not()) == 0).item<bool>());
  EXPECT_TRUE(torch::all(weights.masked_select(mask) > 0).item<bool>());
  EXPECT_FLOAT_EQ(weights[2][0].item<float>(), 1.0f);  // one real token takes all the weight
}

INSTANTIATE_TEST_SUITE_P(AllScores, AttentionContract, ::testing::ValuesIn(score_function_names()));

}  // namespace
}  // namespace attnscope
