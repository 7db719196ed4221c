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

std::string saved_state(torch::optim::Optimizer& optimizer) {
  torch::serialize::OutputArchive archive;
  optimizer.save(archive);
  std::ostringstream bytes;
  archive.save_to(bytes);
  return bytes.str();
}

void load_state(torch::optim::Optimizer& optimizer, const std::string& bytes) {
  std::istringstream stream(bytes);
  torch::serialize::InputArchive archive;
  archive.load_from(stream);
  optimizer.load(archive);
}

std::vector<torch::Tensor> copies(const std::vector<torch::Tensor>& params) {
  std::vector<torch::Tensor> result;
  for (const auto& p : params) result.push_back(p.detach().clone().requires_grad_());
  return result;
}

// A fresh optimizer of either kind, given the other kind's saved state, takes the same next step
// as the optimizer that kept running (a load that ignored the state would start from zero
// moments and step 1, and move the parameters differently).
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
  auto fused_from_reference = copies(first), reference_from_fused = copies(second);
  FusedAdam fresh_fused(fused_from_reference, torch::optim::AdamOptions(1e-2));
  torch::optim::Adam fresh_reference(reference_from_fused, torch::optim::AdamOptions(1e-2));
  load_state(fresh_fused, saved_state(reference));
  load_state(fresh_reference, saved_state(fused));
  for (auto* params : {&first, &second, &fused_from_reference, &reference_from_fused})
    set_gradients(*params, 3);
  fused.step();
  reference.step();
  fresh_fused.step();
  fresh_reference.step();
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_TRUE(torch::allclose(fused_from_reference[i], second[i], 1e-5, 1e-6)) << i;
    EXPECT_TRUE(torch::allclose(reference_from_fused[i], first[i], 1e-5, 1e-6)) << i;
  }
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
