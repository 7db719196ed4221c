// SharedStepInput's step operations against the same arithmetic in plain torch operations, in
// a small recurrence shaped like the teacher-forced decoder: every step reads the shared value
// with weights that depend on the previous step, padding positions get weight zero, and the
// value has a history of its own, so its gradient must reach the tensors it was made from.
#include "ops/shared_step_input.h"

#include <gtest/gtest.h>

#include <limits>

namespace attnscope {
namespace {

constexpr int64_t B = 3, S = 5, F = 8, kSteps = 4;

struct Leaves {
  torch::Tensor source, query_weight, vector, start;  // each requires a gradient
  torch::Tensor mask;                                 // [B,S]: padding is false
};

Leaves make_leaves() {
  torch::manual_seed(11);
  Leaves l{torch::randn({B, S, F}).requires_grad_(), torch::randn({F, F}).requires_grad_(),
           torch::randn({1, F}).requires_grad_(), torch::randn({B, F}).requires_grad_(),
           torch::ones({B, S}, torch::kBool)};
  l.mask[1][4] = false;  // rows of different lengths, as in a batch
  l.mask[2][3] = false;
  l.mask[2][4] = false;
  return l;
}

torch::Tensor masked_softmax(const torch::Tensor& scores, const torch::Tensor& mask) {
  return torch::softmax(
      scores.masked_fill(mask.logical_not(), -std::numeric_limits<float>::infinity()), 1);
}

// Attention by additive scores, then the weighted sum fed into the next state; `shared`
// selects SharedStepInput or plain torch operations. Step `unused` stays out of the loss.
torch::Tensor run(const Leaves& l, bool shared, int64_t unused = -1) {
  const torch::Tensor value = torch::tanh(l.source * 0.5);  // a value with a history
  SharedStepInput input(value);
  torch::Tensor state = l.start, loss = torch::zeros({});
  for (int64_t t = 0; t < kSteps; ++t) {
    const torch::Tensor query = torch::mm(state, l.query_weight);
    const torch::Tensor scores =
        shared ? input.additive_scores(query, l.vector)
               : torch::matmul(torch::tanh(value + query.unsqueeze(1)), l.vector.squeeze(0));
    const torch::Tensor a = masked_softmax(scores, l.mask);
    const torch::Tensor read = shared ? input.weighted_sum(a) : (a.unsqueeze(2) * value).sum(1);
    if (t == unused) continue;
    state = torch::tanh(state + read);
    loss = loss + (state * static_cast<double>(t + 1)).sum();
  }
  return loss;
}

std::vector<torch::Tensor> gradients(const Leaves& l, const torch::Tensor& loss) {
  return torch::autograd::grad({loss}, {l.source, l.query_weight, l.vector, l.start});
}

void expect_same_loss_and_gradients(int64_t unused) {
  const Leaves l = make_leaves();
  const torch::Tensor expected = run(l, false, unused), actual = run(l, true, unused);
  EXPECT_TRUE(torch::allclose(actual, expected, 1e-5, 1e-5));
  const auto expected_grads = gradients(l, expected), actual_grads = gradients(l, actual);
  for (size_t i = 0; i < expected_grads.size(); ++i)
    EXPECT_TRUE(torch::allclose(actual_grads[i], expected_grads[i], 1e-4, 1e-5))
        << "gradient " << i << ": largest difference "
        << (actual_grads[i] - expected_grads[i]).abs().max().item<float>();
}

TEST(SharedStepInput, SameLossAndGradientsAsTorchOperations) { expect_same_loss_and_gradients(-1); }

TEST(SharedStepInput, AStepOutsideTheLossAddsNothing) { expect_same_loss_and_gradients(2); }

// A padded position must not reach the result even when its value is garbage: its weight is
// zero, and the weighted sum skips it rather than multiplying NaN by zero.
TEST(SharedStepInput, PaddingNeverReachesTheWeightedSum) {
  const Leaves l = make_leaves();
  const torch::Tensor padding = l.mask.logical_not();
  const torch::Tensor clean = l.source.detach().masked_fill(padding.unsqueeze(2), 0.0);
  const torch::Tensor garbage =
      clean.masked_fill(padding.unsqueeze(2), std::numeric_limits<float>::quiet_NaN());
  const torch::Tensor a = masked_softmax(torch::randn({B, S}), l.mask);
  const torch::Tensor read = SharedStepInput(garbage).weighted_sum(a);
  EXPECT_TRUE(torch::isfinite(read).all().item<bool>());
  EXPECT_TRUE(torch::allclose(read, SharedStepInput(clean).weighted_sum(a), 1e-6, 1e-6));
}

// Padded positions get no gradient through the kernels' own backward passes.
TEST(SharedStepInput, PaddingGetsNoGradient) {
  const Leaves l = make_leaves();
  const torch::Tensor value = l.source.detach().clone().requires_grad_();
  SharedStepInput input(value);
  const torch::Tensor query = torch::randn({B, F});
  const torch::Tensor a = masked_softmax(input.additive_scores(query, l.vector), l.mask);
  input.weighted_sum(a).sum().backward();
  EXPECT_EQ(value.grad()[2][4].abs().sum().item<float>(), 0.0f);
  EXPECT_EQ(value.grad()[1][4].abs().sum().item<float>(), 0.0f);
  EXPECT_GT(value.grad()[2][2].abs().sum().item<float>(), 0.0f);
}

TEST(SharedStepInput, WithoutGradientsGivesTheSameValues) {
  const Leaves l = make_leaves();
  const torch::Tensor expected = run(l, false);
  torch::NoGradGuard no_grad;
  const torch::Tensor actual = run(l, true);
  EXPECT_FALSE(actual.requires_grad());
  EXPECT_TRUE(torch::allclose(actual, expected, 1e-5, 1e-5));
}

TEST(SharedStepInput, AValueWithoutGradientStillPassesTheWeightsTheirs) {
  torch::manual_seed(12);
  const torch::Tensor value = torch::randn({B, S, F});
  const torch::Tensor logits = torch::randn({B, S}).requires_grad_();
  const torch::Tensor direction = torch::randn({B, F});
  SharedStepInput input(value);
  const torch::Tensor shared = (input.weighted_sum(torch::softmax(logits, 1)) * direction).sum();
  const torch::Tensor plain =
      ((torch::softmax(logits, 1).unsqueeze(2) * value).sum(1) * direction).sum();
  EXPECT_TRUE(torch::allclose(torch::autograd::grad({shared}, {logits})[0],
                              torch::autograd::grad({plain}, {logits})[0], 1e-5, 1e-6));
}

}  // namespace
}  // namespace attnscope
