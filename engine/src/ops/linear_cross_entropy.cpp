#include "ops/linear_cross_entropy.h"

#include "ops/mixed_precision.h"

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
    const int64_t N = features.size(0), U = shared_rows.size(0);
    const int64_t D = features.size(1), F = weight.size(1), V = weight.size(0);
    // The products' operands as the thread's precision takes them (mixed_precision.h; in
    // bfloat16 with zero rows up to product_rows()), kept for backward, which multiplies by
    // them again. The buffer has the operand's rows; its first N are the real positions'.
    // The weight's two column blocks apart, each dense in bfloat16: oneDNN multiplies by the
    // transpose of a dense matrix with AMX, but by a column block's (a row stride of F) with
    // its slower AVX-512 GEMM (measured 25 against ~6 ms for the 448 × 768 × 7882 product).
    const Tensor feature_operand = product_operand(features, product_rows(N));
    const Tensor weight_operand = product_operand(weight.narrow(1, 0, D), V);
    const Tensor shared_weight_operand = product_operand(weight.narrow(1, D, F - D), V);
    const Tensor shared_operand = product_operand(shared_rows, product_rows(U));
    const Tensor buffer = mixed_mm(feature_operand, weight_operand.t());
    Tensor log_probs = buffer.narrow(0, 0, N);
    const Tensor shared_logits =
        U > 0 ? mixed_mm(shared_operand, shared_weight_operand.t()).narrow(0, 0, U) : shared_rows;
    add_bias_and_shared_rows(log_probs, bias.contiguous(), shared_logits, row_index);
    at::_log_softmax_out(log_probs, log_probs, 1, false);  // row by row, so in place is safe
    Tensor loss = log_probs.gather(1, targets.unsqueeze(1)).sum() * -(1.0 - smoothing);
    if (smoothing > 0.0) loss -= log_probs.sum() * (smoothing / static_cast<double>(V));
    ctx->save_for_backward({feature_operand, shared_operand, row_index, weight_operand,
                            shared_weight_operand, targets});
    ctx->saved_data["buffer"] = buffer;
    ctx->saved_data["shared_count"] = U;
    ctx->saved_data["smoothing"] = smoothing;
    return loss;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const variable_list saved = ctx->get_saved_variables();
    const Tensor &features = saved[0], &shared_rows = saved[1], &row_index = saved[2],
                 &weight = saved[3], &shared_weight = saved[4], &targets = saved[5];
    const double smoothing = ctx->saved_data["smoothing"].toDouble();
    const int64_t U = ctx->saved_data["shared_count"].toInt();
    const double g = grad_outputs[0].item<double>();
    const int64_t N = targets.size(0), D = features.size(1), F = D + shared_weight.size(1),
                  V = weight.size(0);
    // d loss / d logits = g·(softmax − (1 − ε)·onehot(target) − ε/V), made in the saved
    // buffer without the factor g. In float32 the products below apply g as their alpha (a
    // pass over the N × V buffer fewer); in bfloat16 the operands' rounding copies take it.
    const Tensor buffer = ctx->saved_data["buffer"].toTensor();
    Tensor grad = buffer.narrow(0, 0, N);
    grad.exp_();
    if (smoothing > 0.0) grad.sub_(smoothing / static_cast<double>(V));
    grad.scatter_add_(1, targets.unsqueeze(1),
                      torch::full({N, 1}, -(1.0 - smoothing), grad.options()));
    buffer.narrow(0, N, buffer.size(0) - N).zero_();  // padding rows add nothing
    const bool scaled_operands = matmul_precision() == Precision::kBFloat16;
    const double alpha = scaled_operands ? 1.0 : g;
    const Tensor grad_operand = product_operand(buffer, buffer.size(0), scaled_operands ? g : 1.0);

    Tensor grad_features, grad_shared, grad_weight, grad_bias;
    if (ctx->needs_input_grad(0)) {
      grad_features = torch::empty({N, D}, grad.options());
      mixed_mm_out(grad_features, grad_operand, weight, alpha);
    }
    // Straight into column blocks: BLAS writes a row-major block with a row stride.
    if (ctx->needs_input_grad(3)) {
      grad_weight = torch::empty({V, F}, grad.options());
      mixed_mm_out(grad_weight.narrow(1, 0, D), grad_operand.t(), features, alpha);
    }
    Tensor grad_by_row;
    if (U > 0) {
      grad_by_row = sum_rows_by_index(grad, row_index, U);
      const Tensor by_row_operand =
          product_operand(grad_by_row, shared_rows.size(0), scaled_operands ? g : 1.0);
      if (ctx->needs_input_grad(1)) {
        grad_shared = torch::empty({U, F - D}, grad.options());
        mixed_mm_out(grad_shared, by_row_operand, shared_weight, alpha);
      }
      if (grad_weight.defined())
        mixed_mm_out(grad_weight.narrow(1, D, F - D), by_row_operand.t(), shared_rows, alpha);
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
