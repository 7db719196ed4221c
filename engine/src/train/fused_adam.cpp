#include "train/fused_adam.h"

#include <cmath>

namespace attnscope {
namespace {

struct AdamConstants {
  float beta1, beta2, gradient_scale, step_size, inverse_sqrt_correction2, eps, weight_decay;
};

// One parameter's update, the arithmetic of torch's Adam::step in one loop:
//   g = scale·grad (+ wd·p); m = β₁m + (1−β₁)g; v = β₂v + (1−β₂)g²;
//   p −= lr/(1−β₁ᵗ) · m / (√v/√(1−β₂ᵗ) + ε)
void update_range(const AdamConstants& c, float* p, const float* grad, float* m, float* v,
                  int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    const float g = c.gradient_scale * grad[i] + c.weight_decay * p[i];
    m[i] = c.beta1 * m[i] + (1.0f - c.beta1) * g;
    v[i] = c.beta2 * v[i] + (1.0f - c.beta2) * g * g;
    p[i] -= c.step_size * m[i] / (std::sqrt(v[i]) * c.inverse_sqrt_correction2 + c.eps);
  }
}

}  // namespace

torch::Tensor FusedAdam::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enable_grad(true);
    loss = closure();
  }
  update(1.0);
  return loss;
}

double FusedAdam::clip_and_step(double max_norm) {
  torch::NoGradGuard no_grad;
  // The total norm as clip_grad_norm_ computes it: the norm of the parameters' norms.
  std::vector<torch::Tensor> norms;
  for (const auto& group : param_groups())
    for (const auto& p : group.params())
      if (p.grad().defined()) norms.push_back(p.grad().norm());
  if (norms.empty()) return 0.0;
  const double total = torch::stack(norms).norm().item<double>();
  const double coefficient = max_norm / (total + 1e-6);
  update(coefficient < 1.0 ? coefficient : 1.0);
  return total;
}

void FusedAdam::update(double gradient_scale) {
  torch::NoGradGuard no_grad;
  for (auto& group : param_groups()) {
    const auto& options = static_cast<const torch::optim::AdamOptions&>(group.options());
    TORCH_CHECK(!options.amsgrad(), "FusedAdam does not support amsgrad");
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      const torch::Tensor grad = p.grad().contiguous();
      TORCH_CHECK(p.is_contiguous() && p.scalar_type() == torch::kFloat,
                  "FusedAdam needs contiguous float parameters");
      const std::string key = c10::guts::to_string(p.unsafeGetTensorImpl());
      auto found = state().find(key);
      if (found == state().end()) {
        auto fresh = std::make_unique<torch::optim::AdamParamState>();
        fresh->step(0);
        fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        found = state().emplace(key, std::move(fresh)).first;
      }
      auto& s = static_cast<torch::optim::AdamParamState&>(*found->second);
      s.step(s.step() + 1);
      const double beta1 = std::get<0>(options.betas()), beta2 = std::get<1>(options.betas());
      const double correction1 = 1.0 - std::pow(beta1, static_cast<double>(s.step()));
      const double correction2 = 1.0 - std::pow(beta2, static_cast<double>(s.step()));
      const AdamConstants c{static_cast<float>(beta1),
                            static_cast<float>(beta2),
                            static_cast<float>(gradient_scale),
                            static_cast<float>(options.lr() / correction1),
                            static_cast<float>(1.0 / std::sqrt(correction2)),
                            static_cast<float>(options.eps()),
                            static_cast<float>(options.weight_decay())};
      float* values = p.data_ptr<float>();
      const float* g = grad.data_ptr<float>();
      float* m = s.exp_avg().data_ptr<float>();
      float* v = s.exp_avg_sq().data_ptr<float>();
      at::parallel_for(0, p.numel(), 1 << 15, [&](int64_t begin, int64_t end) {
        update_range(c, values, g, m, v, begin, end);
      });
    }
  }
}

}  // namespace attnscope
