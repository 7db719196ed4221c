#include "ops/deferred_weight_gradient.h"

#include "ops/mixed_precision.h"

namespace attnscope {

struct DeferWeightGradients::Weight {
  torch::Tensor weight;
  torch::Tensor operand;  // in bfloat16 the weight rounded once for all the steps, else undefined
  std::vector<torch::Tensor> inputs, output_gradients;  // one per step, in step order
};

namespace {

// The weights of the DeferWeightGradients alive on this thread, if any.
thread_local std::vector<std::shared_ptr<DeferWeightGradients::Weight>>* active_weights = nullptr;

// A step's rows are its batch's: few shapes, so a smaller padding than product_rows()'s default
// (oneDNN's tiles have 16 rows) wastes less on the ~32 rows of a worker's share.
constexpr int64_t kStepRowMultiple = 16;

}  // namespace

DeferWeightGradients::DeferWeightGradients() {
  TORCH_CHECK(active_weights == nullptr, "DeferWeightGradients scopes do not nest");
  active_weights = &weights_;
}

DeferWeightGradients::~DeferWeightGradients() { active_weights = nullptr; }

torch::Tensor recurrent_product(const torch::Tensor& input, const torch::Tensor& weight,
                                const torch::Tensor& bias) {
  auto product = [&](const torch::Tensor& w) {
    return bias.defined() ? torch::addmm(bias, input, w.t()) : torch::mm(input, w.t());
  };
  if (!torch::GradMode::is_enabled()) return product(weight);
  const bool bfloat16 = matmul_precision() == Precision::kBFloat16;
  if (active_weights == nullptr || !weight.requires_grad())
    return bfloat16 ? mixed_linear(input, weight, bias, {}, kStepRowMultiple) : product(weight);
  std::shared_ptr<DeferWeightGradients::Weight> entry;
  for (const auto& w : *active_weights)
    if (w->weight.unsafeGetTensorImpl() == weight.unsafeGetTensorImpl()) entry = w;
  if (!entry) {
    entry = std::make_shared<DeferWeightGradients::Weight>();
    entry->weight = weight;
    if (bfloat16) entry->operand = product_operand(weight.detach(), weight.size(0));
    active_weights->push_back(entry);
  }
  // The input and bias keep their gradients through autograd; the weight's waits for the hook.
  torch::Tensor output =
      bfloat16 ? mixed_linear(input, weight.detach(), bias, entry->operand, kStepRowMultiple)
               : product(weight.detach());
  const size_t step = entry->inputs.size();
  entry->inputs.push_back(input.detach());
  entry->output_gradients.emplace_back();
  output.register_hook([weak = std::weak_ptr(entry), step](const torch::Tensor& gradient) {
    if (auto w = weak.lock()) w->output_gradients[step] = gradient;
  });
  return output;
}

void DeferWeightGradients::add_deferred_gradients(const std::vector<torch::Tensor>& parameters,
                                                  std::vector<torch::Tensor>& gradients) {
  torch::NoGradGuard no_grad;
  for (const auto& w : weights_) {
    std::vector<torch::Tensor> inputs, output_gradients;
    for (size_t s = 0; s < w->inputs.size(); ++s)
      if (w->output_gradients[s].defined()) {
        inputs.push_back(w->inputs[s]);
        output_gradients.push_back(w->output_gradients[s]);
      }
    if (inputs.empty()) continue;
    // Steps × rows is the inner dimension: padded in bfloat16 (mixed_precision.h).
    const torch::Tensor outputs = torch::cat(output_gradients), steps = torch::cat(inputs);
    const int64_t rows = product_rows(steps.size(0));
    const torch::Tensor gradient =
        mixed_mm(product_operand(outputs, rows).t(), product_operand(steps, rows));
    for (size_t p = 0; p < parameters.size(); ++p)
      if (parameters[p].unsafeGetTensorImpl() == w->weight.unsafeGetTensorImpl())
        gradients[p] = gradients[p].defined() ? gradients[p] + gradient : gradient;
  }
}

}  // namespace attnscope
