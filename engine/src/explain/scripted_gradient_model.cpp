#include "explain/scripted_gradient_model.h"

#include <c10/core/InferenceMode.h>

#include <stdexcept>

namespace attnscope {
namespace {

// The protocol runs one sentence at a time, so each point is its own forward pass, and each
// target token its own backward pass through that point's graph (kept until the last one). Only
// one point's graph is alive at a time, which bounds the memory.
class ScriptedGradientModel : public GradientModel {
 public:
  explicit ScriptedGradientModel(std::shared_ptr<const ScriptedModel> model)
      : model_(std::move(model)) {}

  torch::Tensor embed(const std::vector<int64_t>& source) override {
    torch::NoGradGuard no_grad;
    return model_->embed(source).clone();
  }

  TargetGradients gradients(const torch::Tensor& points, const torch::Tensor& weights,
                            const std::vector<int64_t>& target) override {
    TORCH_CHECK(!c10::InferenceMode::is_enabled(), "gradients need autograd, not InferenceMode");
    TORCH_CHECK(points.dim() == 3 && weights.dim() == 1 && weights.size(0) == points.size(0),
                "points [K,S,E] and weights [K] expected");
    const auto vocabulary = static_cast<int64_t>(model_->attributes().target_vocabulary.size());
    for (int64_t id : target) TORCH_CHECK(id >= 0 && id < vocabulary, "target id out of range");
    torch::AutoGradMode grad_mode(true);
    const int64_t K = points.size(0), S = points.size(1), E = points.size(2);
    const auto T = static_cast<int64_t>(target.size());
    TargetGradients out{torch::zeros({K, T}), torch::zeros({T, S, E})};
    const torch::Tensor weight = weights.to(torch::kDouble).contiguous();
    for (int64_t k = 0; k < K; ++k) {
      // A copy: the caller's points may have been made under InferenceMode, and autograd
      // cannot keep such tensors.
      const torch::Tensor leaf = points[k].detach().to(torch::kFloat).clone().requires_grad_(true);
      std::vector<torch::Tensor> state = model_->encode_embedded(leaf);
      std::vector<torch::Tensor> chosen;  // log p(target[t]), in the graph
      int64_t previous = model_->attributes().bos;
      for (int64_t t = 0; t < T; ++t) {
        ScriptedStep step = model_->step(state, previous, S);
        previous = target[static_cast<size_t>(t)];
        chosen.push_back(step.log_probs[previous]);
        state = std::move(step.state);
      }
      state.clear();
      const double w = weight[k].item<double>();
      for (int64_t t = 0; t < T; ++t) {
        const torch::Tensor& value = chosen[static_cast<size_t>(t)];
        out.log_probs[k][t] = value.item<float>();
        torch::Tensor gradient;
        if (value.requires_grad())
          gradient = torch::autograd::grad({value}, {leaf}, {}, /*retain_graph=*/t + 1 < T,
                                           /*create_graph=*/false, /*allow_unused=*/true)[0];
        if (!gradient.defined())
          throw std::runtime_error(
              "model '" + model_->path() +
              "': its log-probabilities after encode_embedded() do not depend on the embeddings "
              "by autograd (no detach(), .data or torch.no_grad() inside it; see "
              "docs/model-protocol.md)");
        out.weighted_sum[t].add_(gradient, w);
      }
    }
    return out;
  }

 private:
  std::shared_ptr<const ScriptedModel> model_;
};

}  // namespace

std::unique_ptr<GradientModel> scripted_gradient_model(std::shared_ptr<const ScriptedModel> model,
                                                       std::string* why_not) {
  if (!model->has_gradient_methods()) {
    *why_not = model->gradient_methods_missing();
    return nullptr;
  }
  return std::make_unique<ScriptedGradientModel>(std::move(model));
}

}  // namespace attnscope
