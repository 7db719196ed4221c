// The fused GRU update against torch's own GRUCell: the same next state and the same gradients
// for the input, the previous state and the cell's weights.
#include "ops/gru_cell.h"

#include <gtest/gtest.h>

namespace attnscope {
namespace {

TEST(GruCell, MatchesTorchGruCellForwardAndBackward) {
  torch::manual_seed(4);
  const int64_t B = 5, E = 7, H = 6;
  torch::nn::GRUCell reference(E, H);
  const torch::Tensor x = torch::randn({B, E}).requires_grad_();
  const torch::Tensor h = torch::randn({B, H}).requires_grad_();
  const torch::Tensor weight = torch::randn({B, H});  // a loss that weighs every output

  const torch::Tensor expected = reference(x, h);
  (expected * weight).sum().backward();
  const std::vector<torch::Tensor> expected_grads{x.grad().clone(),
                                                  h.grad().clone(),
                                                  reference->weight_ih.grad().clone(),
                                                  reference->weight_hh.grad().clone(),
                                                  reference->bias_ih.grad().clone(),
                                                  reference->bias_hh.grad().clone()};
  for (auto t : {x, h}) t.mutable_grad() = torch::Tensor();
  for (auto& p : reference->parameters()) p.mutable_grad() = torch::Tensor();

  const torch::Tensor fused =
      gru_cell(torch::addmm(reference->bias_ih, x, reference->weight_ih.t()),
               torch::addmm(reference->bias_hh, h, reference->weight_hh.t()), h);
  (fused * weight).sum().backward();
  const std::vector<torch::Tensor> fused_grads{x.grad(),
                                               h.grad(),
                                               reference->weight_ih.grad(),
                                               reference->weight_hh.grad(),
                                               reference->bias_ih.grad(),
                                               reference->bias_hh.grad()};

  EXPECT_TRUE(torch::allclose(fused, expected, 1e-5, 1e-6));
  for (size_t i = 0; i < expected_grads.size(); ++i)
    EXPECT_TRUE(torch::allclose(fused_grads[i], expected_grads[i], 1e-5, 1e-6)) << i;
}

TEST(GruCell, TakesGatesThatAreViewsOfALargerTensor) {
  // The encoder and decoder pass each step's input gates as a strided view of all steps' gates.
  torch::manual_seed(5);
  const torch::Tensor all_steps = torch::randn({3, 4, 12});  // [B,T,3H], H = 4
  const torch::Tensor hidden_gates = torch::randn({3, 12}), h = torch::randn({3, 4});
  const torch::Tensor step = all_steps.select(1, 2);
  ASSERT_FALSE(step.is_contiguous());
  EXPECT_TRUE(torch::allclose(gru_cell(step, hidden_gates, h),
                              gru_cell(step.contiguous(), hidden_gates, h)));
}

}  // namespace
}  // namespace attnscope
