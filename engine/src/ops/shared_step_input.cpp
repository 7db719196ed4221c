#include "ops/shared_step_input.h"

#include <torch/csrc/autograd/functions/utils.h>

#include <vector>

namespace attnscope {

using torch::Tensor;
using torch::autograd::collect_next_edges;
using torch::autograd::compute_requires_grad;
using torch::autograd::Node;
using torch::autograd::set_history;
using torch::autograd::variable_list;

struct SharedStepInput::Gradient {
  Tensor summed;  // [B,S,F], added to in place; undefined until a step adds to it
  // The weighted sums' parts, made at the end: one step's weights [B,S] and output gradient
  // [B,F] each.
  std::vector<Tensor> weights, output_gradients;
};

namespace {

// Every step node's gradient for the token: the token carries no value, only the ordering.
Tensor token_gradient() { return torch::zeros({}); }

// The value's node: runs once every step's backward has run, and hands on their sum.
struct SharedValueBackward : Node {
  std::shared_ptr<SharedStepInput::Gradient> gradient;

  std::string name() const override { return "SharedValueBackward"; }

  variable_list apply(variable_list&& /*token*/) override {
    Tensor total = std::move(gradient->summed);
    if (!gradient->weights.empty()) {
      // Σₜ aₜ[b,s] gₜ[b,:] for all (b,s) at once: [B,S,T] × [B,T,F].
      const Tensor parts = torch::bmm(torch::stack(gradient->weights, 2),
                                      torch::stack(gradient->output_gradients, 1));
      total = total.defined() ? total.add_(parts) : parts;
    }
    *gradient = {};
    return {total};
  }
};

struct WeightedSumBackward : Node {
  std::shared_ptr<SharedStepInput::Gradient> gradient;
  Tensor value, weights;  // detached

  std::string name() const override { return "WeightedSumBackward"; }

  variable_list apply(variable_list&& grads) override {
    if (!grads[0].defined()) return {Tensor(), token_gradient()};
    const Tensor g = grads[0].contiguous();
    const int64_t B = value.size(0), S = value.size(1), F = value.size(2);
    // ∂/∂weights[b,s] = value[b,s,:] · g[b,:]; the value's part waits for SharedValueBackward.
    Tensor grad_weights = torch::empty({B, S}, g.options());
    const float* v = value.data_ptr<float>();
    const float* out = g.data_ptr<float>();
    float* gw = grad_weights.data_ptr<float>();
    for (int64_t bs = 0; bs < B * S; ++bs) {
      const float* row = v + bs * F;
      const float* go = out + (bs / S) * F;
      float dot = 0.0f;
      for (int64_t f = 0; f < F; ++f) dot += row[f] * go[f];
      gw[bs] = dot;
    }
    gradient->weights.push_back(weights);
    gradient->output_gradients.push_back(g);
    return {grad_weights, token_gradient()};
  }
};

struct AdditiveScoresBackward : Node {
  std::shared_ptr<SharedStepInput::Gradient> gradient;
  Tensor hidden, vector;              // tanh(value + query) [B,S,F] and v [F]
  std::vector<int64_t> vector_shape;  // as given, e.g. a [1,F] weight

  std::string name() const override { return "AdditiveScoresBackward"; }

  variable_list apply(variable_list&& grads) override {
    if (!grads[0].defined()) return {Tensor(), Tensor(), token_gradient()};
    const Tensor g = grads[0].contiguous();
    const int64_t B = hidden.size(0), S = hidden.size(1), F = hidden.size(2);
    if (!gradient->summed.defined()) gradient->summed = torch::zeros_like(hidden);
    Tensor grad_query = torch::zeros({B, F}, g.options());
    Tensor grad_vector = torch::zeros({F}, g.options());
    const float* t = hidden.data_ptr<float>();
    const float* v = vector.data_ptr<float>();
    const float* gs = g.data_ptr<float>();
    float* gk = gradient->summed.data_ptr<float>();
    float* gq = grad_query.data_ptr<float>();
    float* gv = grad_vector.data_ptr<float>();
    // One pass over the step's tanh values: d = g·v⊙(1 − t²) is the gradient of the sum
    // value + query, which the value collects in place and the query sums over positions.
    for (int64_t bs = 0; bs < B * S; ++bs) {
      const float c = gs[bs];
      if (c == 0.0f) continue;  // padding: the masked softmax passes no gradient
      const float* row = t + bs * F;
      float* __restrict__ key = gk + bs * F;
      float* __restrict__ query = gq + (bs / S) * F;
      for (int64_t f = 0; f < F; ++f) {
        const float d = c * v[f] * (1.0f - row[f] * row[f]);
        key[f] += d;
        query[f] += d;
        gv[f] += c * row[f];
      }
    }
    return {grad_query, grad_vector.view(vector_shape), token_gradient()};
  }
};

}  // namespace

SharedStepInput::SharedStepInput(const torch::Tensor& value)
    : value_(value),
      detached_(value.detach().contiguous()),
      gradient_(std::make_shared<Gradient>()) {
  TORCH_CHECK(value.dim() == 3 && value.scalar_type() == torch::kFloat,
              "SharedStepInput needs a float [B,S,F] tensor");
  if (!compute_requires_grad(value)) return;
  auto node = std::make_shared<SharedValueBackward>();
  node->gradient = gradient_;
  node->set_next_edges(collect_next_edges(value));
  token_ = torch::zeros({});
  set_history(token_, node);
}

torch::Tensor SharedStepInput::weighted_sum(const torch::Tensor& weights) {
  const int64_t B = detached_.size(0), S = detached_.size(1), F = detached_.size(2);
  TORCH_CHECK(weights.sizes() == torch::IntArrayRef({B, S}), "weights must be [B,S]");
  const Tensor w = weights.detach().contiguous();
  Tensor out = torch::zeros({B, F}, detached_.options());
  const float* v = detached_.data_ptr<float>();
  const float* a = w.data_ptr<float>();
  float* o = out.data_ptr<float>();
  for (int64_t bs = 0; bs < B * S; ++bs) {
    if (a[bs] == 0.0f) continue;  // weight zero (padding): nothing to add
    const float* row = v + bs * F;
    float* __restrict__ sum = o + (bs / S) * F;
    const float weight = a[bs];
    for (int64_t f = 0; f < F; ++f) sum[f] += weight * row[f];
  }
  if (compute_requires_grad(weights, token_)) {
    auto node = std::make_shared<WeightedSumBackward>();
    node->gradient = gradient_;
    node->value = detached_;
    node->weights = w;
    node->set_next_edges(collect_next_edges(weights, token_));
    set_history(out, node);
  }
  return out;
}

torch::Tensor SharedStepInput::additive_scores(const torch::Tensor& query,
                                               const torch::Tensor& vector) {
  const int64_t B = detached_.size(0), S = detached_.size(1), F = detached_.size(2);
  TORCH_CHECK(query.sizes() == torch::IntArrayRef({B, F}) && vector.numel() == F,
              "additive scores need a [B,F] query and an F vector");
  Tensor hidden, scores;
  {
    torch::NoGradGuard no_grad;
    // tanh(x) as 2σ(2x) − 1: this libtorch's tanh kernel took 0.73 ms for a [64,15,256] batch
    // here, its sigmoid 0.30 ms; the identity's absolute error stays below 2e-7.
    hidden = (detached_ + query.unsqueeze(1)).mul_(2).sigmoid_().mul_(2).sub_(1);
    scores = torch::empty({B, S}, hidden.options());  // not a view: autograd history goes on it
    Tensor flat = scores.view({B * S});
    torch::mv_out(flat, hidden.view({B * S, F}), vector.reshape({F}));
  }
  if (compute_requires_grad(query, vector, token_)) {
    auto node = std::make_shared<AdditiveScoresBackward>();
    node->gradient = gradient_;
    node->hidden = hidden;
    node->vector = vector.detach().reshape({F}).contiguous();
    node->vector_shape = vector.sizes().vec();
    node->set_next_edges(collect_next_edges(query, vector, token_));
    set_history(scores, node);
  }
  return scores;
}

}  // namespace attnscope
