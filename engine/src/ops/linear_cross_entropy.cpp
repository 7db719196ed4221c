#include "ops/linear_cross_entropy.h"

namespace attnscope {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// rows[n] += bias + shared[index[n]] (no shared rows when `shared` is empty), in one pass over
// the rows. A plain product followed by this pass measured ~10% faster than addmm, which copies
// the bias into every row first and then has BLAS read them back.
void add_bias_and_shared_rows(Tensor& rows, const Tensor& bias, const Tensor& shared,
                              const Tensor& index) {
  const int64_t width = rows.size(1);
  float* out = rows.data_ptr<float>();
  const float* b = bias.data_ptr<float>();
  const bool with_shared = shared.size(0) > 0;
  const float* in = with_shared ? shared.data_ptr<float>() : nullptr;
  const int64_t* which = with_shared ? index.data_ptr<int64_t>() : nullptr;
  at::parallel_for(0, rows.size(0), 16, [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; ++n) {
      float* row = out + n * width;
      if (with_shared) {
        const float* add = in + which[n] * width;
        for (int64_t v = 0; v < width; ++v) row[v] += b[v] + add[v];
      } else {
        for (int64_t v = 0; v < width; ++v) row[v] += b[v];
      }
    }
  });
}

// sums[u] = Σ over n with index[n] = u of rows[n]: index_add_, without its per-row dispatch.
Tensor sum_rows_by_index(const Tensor& rows, const Tensor& index, int64_t count) {
  Tensor sums = torch::zeros({count, rows.size(1)}, rows.options());
  const int64_t width = rows.size(1);
  float* out = sums.data_ptr<float>();
  const float* in = rows.data_ptr<float>();
  const int64_t* which = index.data_ptr<int64_t>();
  for (int64_t n = 0; n < rows.size(0); ++n) {  // serial: rows with one index would race
    float* sum = out + which[n] * width;
    const float* row = in + n * width;
    for (int64_t v = 0; v < width; ++v) sum[v] += row[v];
  }
  return sums;
}

class LinearCrossEntropy : public torch::autograd::Function<LinearCrossEntropy> {
 public:
  // shared_rows and row_index are [0,·] tensors when nothing is shared.
  static Tensor forward(AutogradContext* ctx, const Tensor& features, const Tensor& shared_rows,
                        const Tensor& row_index, const Tensor& weight, const Tensor& bias,
                        const Tensor& targets, double smoothing) {
    const int64_t D = features.size(1), F = weight.size(1), V = weight.size(0);
    Tensor log_probs = torch::mm(features, weight.narrow(1, 0, D).t());
    const Tensor shared_logits = shared_rows.size(0) > 0
                                     ? torch::mm(shared_rows, weight.narrow(1, D, F - D).t())
                                     : shared_rows;
    add_bias_and_shared_rows(log_probs, bias.contiguous(), shared_logits, row_index);
    at::_log_softmax_out(log_probs, log_probs, 1, false);  // row by row, so in place is safe
    Tensor loss = log_probs.gather(1, targets.unsqueeze(1)).sum() * -(1.0 - smoothing);
    if (smoothing > 0.0) loss -= log_probs.sum() * (smoothing / static_cast<double>(V));
    ctx->save_for_backward({features, shared_rows, row_index, weight, targets});
    ctx->saved_data["log_probs"] = log_probs;
    ctx->saved_data["smoothing"] = smoothing;
    return loss;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const variable_list saved = ctx->get_saved_variables();
    const Tensor &features = saved[0], &shared_rows = saved[1], &row_index = saved[2],
                 &weight = saved[3], &targets = saved[4];
    const double smoothing = ctx->saved_data["smoothing"].toDouble();
    const double g = grad_outputs[0].item<double>();
    const int64_t D = features.size(1), F = weight.size(1), V = weight.size(0);
    // d loss / d logits = g·(softmax − (1 − ε)·onehot(target) − ε/V), made in the saved
    // buffer without the factor g, which the products below apply as their alpha (a pass over
    // the N × V buffer fewer).
    Tensor grad = ctx->saved_data["log_probs"].toTensor();
    grad.exp_();
    if (smoothing > 0.0) grad.sub_(smoothing / static_cast<double>(V));
    grad.scatter_add_(1, targets.unsqueeze(1),
                      torch::full({targets.size(0), 1}, -(1.0 - smoothing), grad.options()));
    // out = g · a b, written into `out` (beta 0: its old contents are ignored).
    auto scaled_product = [g](Tensor out, const Tensor& a, const Tensor& b) {
      torch::addmm_out(out, out, a, b, /*beta=*/0.0, /*alpha=*/g);
    };

    Tensor grad_features, grad_shared, grad_weight, grad_bias;
    if (ctx->needs_input_grad(0)) {
      grad_features = torch::empty({grad.size(0), D}, grad.options());
      scaled_product(grad_features, grad, weight.narrow(1, 0, D));
    }
    // Straight into column blocks: BLAS writes a row-major block with a row stride.
    if (ctx->needs_input_grad(3)) {
      grad_weight = torch::empty_like(weight);
      scaled_product(grad_weight.narrow(1, 0, D), grad.t(), features);
    }
    Tensor grad_by_row;
    if (shared_rows.size(0) > 0) {
      grad_by_row = sum_rows_by_index(grad, row_index, shared_rows.size(0));
      if (ctx->needs_input_grad(1)) {
        grad_shared = torch::empty({shared_rows.size(0), F - D}, grad.options());
        scaled_product(grad_shared, grad_by_row, weight.narrow(1, D, F - D));
      }
      if (grad_weight.defined())
        scaled_product(grad_weight.narrow(1, D, F - D), grad_by_row.t(), shared_rows);
    }
    // The rows summed by token add up to the same column sums, from fewer rows.
    if (ctx->needs_input_grad(4))
      grad_bias = (grad_by_row.defined() ? grad_by_row : grad).sum(0).mul_(g);
    return {grad_features, grad_shared, Tensor(), grad_weight, grad_bias, Tensor(), Tensor()};
  }
};

}  // namespace

torch::Tensor linear_cross_entropy_sum(const OutputLayerInput& input, const torch::Tensor& weight,
                                       const torch::Tensor& bias, const torch::Tensor& targets,
                                       double label_smoothing) {
  const bool shared = input.shared_rows.defined();
  const int64_t F = weight.size(1);
  const int64_t D = input.features.size(1);
  TORCH_CHECK(
      input.features.dim() == 2 && targets.dim() == 1 && targets.size(0) == input.features.size(0),
      "linear_cross_entropy_sum: features [N,D] and targets [N] expected");
  TORCH_CHECK(shared
                  ? input.shared_rows.size(1) == F - D && input.row_index.size(0) == targets.size(0)
                  : D == F,
              "linear_cross_entropy_sum: inputs do not add up to the weight's ", F, " columns");
  const Tensor no_rows = torch::empty({0, F - D}, input.features.options());
  const Tensor no_index = torch::empty({0}, targets.options());
  return LinearCrossEntropy::apply(input.features.contiguous(),
                                   shared ? input.shared_rows.contiguous() : no_rows,
                                   shared ? input.row_index.contiguous() : no_index, weight, bias,
                                   targets.contiguous(), label_smoothing);
}

}  // namespace attnscope
