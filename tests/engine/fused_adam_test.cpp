// The fused optimizer step against torch's Adam + clip_grad_norm_: the same parameters after
// several steps, and state that either optimizer can load.
#include "train/fused_adam.h"

#include <gtest/gtest.h>

#include <sstream>

namespace attnscope {
namespace {

std::vector<torch::Tensor> parameters(int64_t seed) {
  torch::manual_seed(seed);
  return {torch::randn({300, 7}).requires_grad_(), torch::randn({5}).requires_grad_(),
          torch::randn({70000}).requires_grad_()};  // large enough to be split among threads
}

// Gradients that differ every step; step 1 and 3 are large enough to be clipped at 1.0.
void set_gradients(std::vector<torch::Tensor>& params, int step) {
  torch::manual_seed(100 + step);
  for (auto& p : params) p.mutable_grad() = torch::randn(p.sizes()) * (step % 2 == 1 ? 1.0 : 1e-3);
}

TEST(FusedAdam, MatchesTorchAdamWithClipping) {
  auto torch_params = parameters(1), fused_params = parameters(1);
  const auto options = torch::optim::AdamOptions(1e-2).weight_decay(0.01);
  torch::optim::Adam reference(torch_params, options);
  FusedAdam fused(fused_params, options);
  for (int step = 0; step < 6; ++step) {
    set_gradients(torch_params, step);
    set_gradients(fused_params, step);
    const double norm = torch::nn::utils::clip_grad_norm_(torch_params, 1.0);
    EXPECT_NEAR(fused.clip_and_step(1.0), norm, 1e-4 * norm);
    reference.step();
  }
  for (size_t i = 0; i < torch_params.size(); ++i) {
    EXPECT_FALSE(torch::equal(fused_params[i], parameters(1)[i])) << i;  // it moved
    EXPECT_TRUE(torch::allclose(fused_params[i], torch_params[i], 1e-5, 1e-6)) << i;
  }
}

TEST(FusedAdam, StateSavedByEitherOptimizerLoadsIntoTheOther) {
  auto first = parameters(2), second = parameters(2);
  FusedAdam fused(first, torch::optim::AdamOptions(1e-2));
  torch::optim::Adam reference(second, torch::optim::AdamOptions(1e-2));
  for (int step = 0; step < 3; ++step) {
    set_gradients(first, step);
    set_gradients(second, step);
    fused.step();
    reference.step();
  }
  // Swap states: each continues from the other's moments and step count.
  torch::serialize::OutputArchive fused_out, reference_out;
  fused.save(fused_out);
  reference.save(reference_out);
  std::ostringstream fused_bytes, reference_bytes;
  fused_out.save_to(fused_bytes);
  reference_out.save_to(reference_bytes);
  torch::serialize::InputArchive fused_in, reference_in;
  std::istringstream fused_stream(fused_bytes.str()), reference_stream(reference_bytes.str());
  fused_in.load_from(reference_stream);
  reference_in.load_from(fused_stream);
  fused.load(fused_in);
  reference.load(reference_in);
  set_gradients(first, 3);
  set_gradients(second, 3);
  fused.step();
  reference.step();
  for (size_t i = 0; i < first.size(); ++i)
    EXPECT_TRUE(torch::allclose(first[i], second[i], 1e-5, 1e-6)) << i;
}

TEST(FusedAdam, SkipsParametersWithoutGradient) {
  auto params = parameters(3);
  const torch::Tensor before = params[1].detach().clone();
  FusedAdam fused(params, torch::optim::AdamOptions(1e-2));
  set_gradients(params, 0);
  params[1].mutable_grad() = torch::Tensor();
  fused.clip_and_step(1.0);
  EXPECT_TRUE(torch::equal(params[1], before));
  EXPECT_FALSE(torch::equal(params[0], parameters(3)[0]));
}

}  // namespace
}  // namespace attnscope
