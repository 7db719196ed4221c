// mixed_linear() and recurrent_product() in both precisions (mixed_precision.h,
// deferred_weight_gradient.h): float32 is torch's own arithmetic; bfloat16 is the same value and
// gradients up to the rounding of the products' operands to 8 bits of mantissa.
#include "ops/mixed_precision.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

#include "ops/deferred_weight_gradient.h"

namespace attnscope {
namespace {

double relative_error(const torch::Tensor& value, const torch::Tensor& exact) {
  return (value - exact).norm().item<double>() / exact.norm().item<double>();
}

struct LinearCase {
  torch::Tensor input, weight, bias;  // leaves that need a gradient; bias may be undefined
};

// [2,37,24] input: 74 rows, not a multiple of the padding, through a 3-D view.
LinearCase make_case(bool with_bias) {
  torch::manual_seed(11);
  auto leaf = [](torch::Tensor t) { return t.requires_grad_(); };
  return {leaf(torch::randn({2, 37, 24})), leaf(torch::randn({40, 24}) * 0.2),
          with_bias ? leaf(torch::randn({40})) : torch::Tensor()};
}

// Value and gradients of Σ c ⊙ mixed_linear(...) for a fixed random c.
std::vector<torch::Tensor> run_linear(const LinearCase& c, Precision precision,
                                      const torch::Tensor& weight_operand = {}) {
  const MatmulPrecisionScope scope(precision);
  std::vector<torch::Tensor> leaves{c.input, c.weight};
  if (c.bias.defined()) leaves.push_back(c.bias);
  for (auto& t : leaves) t.mutable_grad() = torch::Tensor();
  const torch::Tensor output = mixed_linear(c.input, c.weight, c.bias, weight_operand);
  torch::manual_seed(12);
  (output * torch::randn(output.sizes())).sum().backward();
  std::vector<torch::Tensor> result{output.detach()};
  for (const auto& t : leaves) result.push_back(t.grad().clone());
  return result;
}

TEST(MixedLinear, Float32IsTorchsOwnProduct) {
  const LinearCase c = make_case(true);
  const MatmulPrecisionScope scope(Precision::kFloat32);
  const torch::Tensor expected = torch::matmul(c.input, c.weight.t()) + c.bias;
  EXPECT_TRUE(torch::equal(mixed_linear(c.input, c.weight, c.bias), expected));
}

TEST(MixedLinear, Bfloat16RoundsTheSameValueAndGradients) {
  for (const bool with_bias : {true, false}) {
    const LinearCase c = make_case(with_bias);
    const auto exact = run_linear(c, Precision::kFloat32);
    const auto mixed = run_linear(c, Precision::kBFloat16);
    ASSERT_EQ(mixed.size(), exact.size());
    EXPECT_EQ(mixed[0].sizes(), exact[0].sizes());
    for (size_t i = 0; i < exact.size(); ++i) {
      EXPECT_EQ(mixed[i].scalar_type(), torch::kFloat) << i;
      EXPECT_LT(relative_error(mixed[i], exact[i]), 0.02) << with_bias << " " << i;
    }
    EXPECT_FALSE(torch::equal(mixed[0], exact[0]));  // the operands really were rounded
  }
}

TEST(MixedLinear, AGivenWeightOperandGivesTheSameResult) {
  const LinearCase c = make_case(true);
  const auto own = run_linear(c, Precision::kBFloat16);
  torch::Tensor operand;
  {
    const MatmulPrecisionScope scope(Precision::kBFloat16);
    operand = product_operand(c.weight.detach(), c.weight.size(0));
  }
  const auto given = run_linear(c, Precision::kBFloat16, operand);
  for (size_t i = 0; i < own.size(); ++i) EXPECT_TRUE(torch::equal(given[i], own[i])) << i;
}

// A recurrence of three steps h ← tanh(b + h Wᵀ): its gradients with the weight's deferred
// (one product after backward) in bfloat16 against plain autograd in float32.
TEST(RecurrentProduct, Bfloat16DeferredGradientsRoundFloat32s) {
  torch::manual_seed(13);
  const torch::Tensor start = torch::randn({5, 16}).requires_grad_();
  const torch::Tensor weight = (torch::randn({16, 16}) * 0.3).requires_grad_();
  const torch::Tensor bias = torch::randn({16}).requires_grad_();
  auto run = [&](Precision precision, bool defer) {
    const MatmulPrecisionScope scope(precision);
    for (auto t : {start, weight, bias}) t.mutable_grad() = torch::Tensor();
    std::vector<torch::Tensor> result;
    if (defer) {
      DeferWeightGradients deferred;
      torch::Tensor h = start;
      for (int step = 0; step < 3; ++step) h = torch::tanh(recurrent_product(h, weight, bias));
      const std::vector<torch::Tensor> parameters{start, weight, bias};
      std::vector<torch::Tensor> gradients =
          torch::autograd::grad({h.sum()}, parameters, {}, false, false, /*allow_unused=*/true);
      deferred.add_deferred_gradients(parameters, gradients);
      return gradients;
    }
    torch::Tensor h = start;
    for (int step = 0; step < 3; ++step) h = torch::tanh(recurrent_product(h, weight, bias));
    return torch::autograd::grad({h.sum()}, {start, weight, bias});
  };
  const auto exact = run(Precision::kFloat32, false);
  const auto mixed = run(Precision::kBFloat16, true);
  for (size_t i = 0; i < exact.size(); ++i) {
    ASSERT_TRUE(mixed[i].defined()) << i;
    EXPECT_LT(relative_error(mixed[i], exact[i]), 0.03) << i;
  }
  EXPECT_FALSE(torch::equal(mixed[1], exact[1]));
  // Without a deferral scope bfloat16 gives the same gradients as with one.
  const auto undeferred = run(Precision::kBFloat16, false);
  for (size_t i = 0; i < exact.size(); ++i)
    EXPECT_LT(relative_error(undeferred[i], mixed[i]), 0.01) << i;
}

}  // namespace
}  // namespace attnscope
