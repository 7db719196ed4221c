// The fused output layer + loss against torch's own linear + cross_entropy: value and every
// gradient, with and without label smoothing, with and without shared rows.
#include "ops/linear_cross_entropy.h"

#include <gtest/gtest.h>

#include "ops/mixed_precision.h"

namespace attnscope {
namespace {

struct Case {
  double smoothing;
  bool shared;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << "smoothing_" << c.smoothing << (c.shared ? "_shared_rows" : "_dense");
}

class LinearCrossEntropyTest : public ::testing::TestWithParam<Case> {};

TEST_P(LinearCrossEntropyTest, MatchesLinearThenCrossEntropy) {
  const auto [smoothing, shared] = GetParam();
  torch::manual_seed(3);
  const int64_t N = 23, D = 12, S = 5, U = 7, V = 31;
  const int64_t F = shared ? D + S : D;
  auto leaf = [](torch::Tensor t) { return t.requires_grad_(); };
  const torch::Tensor features = leaf(torch::randn({N, D}));
  const torch::Tensor rows = leaf(torch::randn({U, S}));
  // Every row used, most several times, as the previous tokens of a batch are.
  const torch::Tensor index = torch::cat({torch::arange(U), torch::randint(U, {N - U})});
  const torch::Tensor weight = leaf(torch::randn({V, F}) * 0.5);
  const torch::Tensor bias = leaf(torch::randn({V}));
  const torch::Tensor targets = torch::randint(V, {N});

  const torch::Tensor fused = linear_cross_entropy_sum(
      {features, shared ? rows : torch::Tensor(), shared ? index : torch::Tensor()}, weight, bias,
      targets, smoothing);
  (fused * 0.7).backward();  // a gradient other than 1 reaches backward
  std::vector<torch::Tensor> fused_grads{features.grad().clone(), weight.grad().clone(),
                                         bias.grad().clone()};
  if (shared) fused_grads.push_back(rows.grad().clone());
  for (const auto& t : {features, rows, weight, bias}) t.mutable_grad() = torch::Tensor();

  const torch::Tensor inputs =
      shared ? torch::cat({features, rows.index_select(0, index)}, 1) : features;
  const torch::Tensor reference = torch::nn::functional::cross_entropy(
      torch::nn::functional::linear(inputs, weight, bias), targets,
      torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(smoothing).reduction(
          torch::kSum));
  (reference * 0.7).backward();
  std::vector<torch::Tensor> reference_grads{features.grad(), weight.grad(), bias.grad()};
  if (shared) reference_grads.push_back(rows.grad());

  EXPECT_NEAR(fused.item<double>(), reference.item<double>(), 1e-4 * reference.item<double>());
  for (size_t i = 0; i < reference_grads.size(); ++i)
    EXPECT_TRUE(torch::allclose(fused_grads[i], reference_grads[i], 1e-4, 1e-5)) << i;
}

// In bfloat16 precision (mixed_precision.h) the value and gradients are those of float32 up to
// bfloat16's rounding of the products' operands (8 bits of mantissa: well under 5%).
TEST_P(LinearCrossEntropyTest, Bfloat16ProductsRoundTheSameResult) {
  const auto [smoothing, shared] = GetParam();
  torch::manual_seed(4);
  const int64_t N = 40, D = 64, S = 32, U = 9, V = 200;
  const int64_t F = shared ? D + S : D;
  auto leaf = [](torch::Tensor t) { return t.requires_grad_(); };
  const torch::Tensor features = leaf(torch::randn({N, D}));
  const torch::Tensor rows = leaf(torch::randn({U, S}));
  const torch::Tensor index = torch::cat({torch::arange(U), torch::randint(U, {N - U})});
  const torch::Tensor weight = leaf(torch::randn({V, F}) * 0.1);
  const torch::Tensor bias = leaf(torch::randn({V}));
  const torch::Tensor targets = torch::randint(V, {N});
  auto run = [&](Precision precision) {
    const MatmulPrecisionScope scope(precision);
    for (const auto& t : {features, rows, weight, bias}) t.mutable_grad() = torch::Tensor();
    const torch::Tensor loss = linear_cross_entropy_sum(
        {features, shared ? rows : torch::Tensor(), shared ? index : torch::Tensor()}, weight, bias,
        targets, smoothing);
    (loss * 0.7).backward();
    std::vector<torch::Tensor> result{loss.detach(), features.grad().clone(), weight.grad().clone(),
                                      bias.grad().clone()};
    if (shared) result.push_back(rows.grad().clone());
    return result;
  };
  const auto exact = run(Precision::kFloat32), mixed = run(Precision::kBFloat16);
  for (size_t i = 0; i < exact.size(); ++i) {
    EXPECT_EQ(mixed[i].scalar_type(), torch::kFloat) << i;
    const double error =
        (mixed[i] - exact[i]).norm().item<double>() / exact[i].norm().item<double>();
    EXPECT_LT(error, 0.05) << i;
  }
  EXPECT_FALSE(torch::equal(mixed[1], exact[1]));  // the products really were rounded
}

TEST(LinearCrossEntropy, WithoutGradModeGivesTheValueOnly) {
  torch::NoGradGuard no_grad;
  const torch::Tensor features = torch::randn({4, 3}), weight = torch::randn({6, 3});
  const torch::Tensor loss = linear_cross_entropy_sum({features, {}, {}}, weight, torch::zeros({6}),
                                                      torch::tensor({0, 5, 2, 2}), 0.0);
  const torch::Tensor expected = torch::nn::functional::cross_entropy(
      torch::mm(features, weight.t()), torch::tensor({0, 5, 2, 2}),
      torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
  EXPECT_NEAR(loss.item<double>(), expected.item<double>(), 1e-5);
  EXPECT_FALSE(loss.requires_grad());
}

TEST(LinearCrossEntropy, RejectsInputsThatDoNotFitTheWeight) {
  const torch::Tensor weight = torch::randn({6, 5});
  EXPECT_THROW(linear_cross_entropy_sum({torch::randn({4, 3}), {}, {}}, weight, torch::zeros({6}),
                                        torch::zeros({4}, torch::kLong), 0.0),
               c10::Error);
}

INSTANTIATE_TEST_SUITE_P(SmoothingAndSharing, LinearCrossEntropyTest,
                         ::testing::Values(Case{0.0, false}, Case{0.1, false}, Case{0.0, true},
                                           Case{0.1, true}));

}  // namespace
}  // namespace attnscope
