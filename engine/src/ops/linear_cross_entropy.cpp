#include "ops/linear_cross_entropy.h"

#include <algorithm>

#include "ops/bfloat16_conversion.h"
#include "ops/mixed_precision.h"
#include "ops/output_gradient_sum.h"

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

// sums[index[n]] += rows[n] for every n: index_add_, without its per-row dispatch.
void add_rows_by_index(Tensor& sums, const Tensor& rows, const Tensor& index) {
  const int64_t width = rows.size(1);
  float* out = sums.data_ptr<float>();
  const float* in = rows.data_ptr<float>();
  const int64_t* which = index.data_ptr<int64_t>();
  for (int64_t n = 0; n < rows.size(0); ++n) {  // serial: rows with one index would race
    float* sum = out + which[n] * width;
    const float* row = in + n * width;
    for (int64_t v = 0; v < width; ++v) sum[v] += row[v];
  }
}

// Rows per block of the passes over the N × V logits: ~1 MB of floats, so that a block's
// passes (widening, bias, log-softmax; backward exp, target, sums, rounding) after the first
// find it in the core's cache instead of memory. One pass each over the whole matrix
// (13 MB for half a batch) went to memory every time.
int64_t block_rows(int64_t V) { return std::max<int64_t>(1, (1 << 18) / std::max<int64_t>(1, V)); }

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
    // them again.
    // The weight's two column blocks apart, each dense in bfloat16: oneDNN multiplies by the
    // transpose of a dense matrix with AMX, but by a column block's (a row stride of F) with
    // its slower AVX-512 GEMM (measured 25 against ~6 ms for the 448 × 768 × 7882 product).
    const Tensor feature_operand = product_operand(features, product_rows(N));
    const Tensor weight_operand = product_operand(weight.narrow(1, 0, D), V);
    const Tensor shared_weight_operand = product_operand(weight.narrow(1, D, F - D), V);
    const Tensor shared_operand = product_operand(shared_rows, product_rows(U));
    const Tensor product = raw_product(feature_operand, weight_operand.t());
    // The log-probabilities: in float32 the product's own rows, in place; in bfloat16 a float32
    // copy of its real rows, widened block by block.
    const Tensor log_probs = product.scalar_type() == torch::kFloat
                                 ? product.narrow(0, 0, N)
                                 : torch::empty({N, V}, torch::kFloat);
    const Tensor shared_logits =
        U > 0 ? mixed_mm(shared_operand, shared_weight_operand.t()).narrow(0, 0, U) : shared_rows;
    const Tensor bias_values = bias.contiguous();
    double log_prob_sum = 0.0;  // for the smoothing term
    for (int64_t begin = 0, step = block_rows(V); begin < N; begin += step) {
      const int64_t count = std::min(step, N - begin);
      Tensor block = log_probs.narrow(0, begin, count);
      copy_product_rows(block, product, begin);
      add_bias_and_shared_rows(block, bias_values, shared_logits,
                               U > 0 ? row_index.narrow(0, begin, count) : row_index);
      at::_log_softmax_out(block, block, 1, false);  // row by row, so in place is safe
      if (smoothing > 0.0) log_prob_sum += block.sum().item<double>();
    }
    Tensor loss = log_probs.gather(1, targets.unsqueeze(1)).sum() * -(1.0 - smoothing);
    if (smoothing > 0.0) loss -= log_prob_sum * (smoothing / static_cast<double>(V));
    ctx->save_for_backward({feature_operand, shared_operand, row_index, weight_operand,
                            shared_weight_operand, targets});
    ctx->saved_data["log_probs"] = log_probs;
    ctx->saved_data["weight"] = weight;  // which parameter, for leave_output_gradient()
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
    // d loss / d logits = g·(softmax − (1 − ε)·onehot(target) − ε/V), made block by block
    // without the factor g. In float32 in place of the log-probabilities, and the products
    // below apply g as their alpha; in bfloat16 each block is rounded into the products'
    // operand (with zero rows up to the features' padded count), which takes g.
    const Tensor log_probs = ctx->saved_data["log_probs"].toTensor();
    const bool bfloat16 = matmul_precision() == Precision::kBFloat16;
    const double alpha = bfloat16 ? 1.0 : g;
    const int64_t rows = features.size(0);
    const Tensor grad_operand =
        bfloat16 ? torch::empty({rows, V}, torch::kBFloat16) : log_probs;  // float32: rows = N
    // The gradient's rows summed: by shared row (their products' gradients), or all together.
    Tensor row_sums = torch::zeros({U > 0 ? U : 1, V});
    const Tensor scratch = bfloat16 ? torch::empty({std::min(block_rows(V), N), V}) : Tensor();
    for (int64_t begin = 0, step = block_rows(V); begin < N; begin += step) {
      const int64_t count = std::min(step, N - begin);
      const Tensor block = log_probs.narrow(0, begin, count);
      Tensor grad = bfloat16 ? scratch.narrow(0, 0, count) : block;
      torch::exp_out(grad, block);
      if (smoothing > 0.0) grad.sub_(smoothing / static_cast<double>(V));
      grad.scatter_add_(1, targets.narrow(0, begin, count).unsqueeze(1),
                        torch::full({count, 1}, -(1.0 - smoothing)));
      if (U > 0)
        add_rows_by_index(row_sums, grad, row_index.narrow(0, begin, count));
      else
        row_sums.add_(grad.sum(0, /*keepdim=*/true));
      if (bfloat16)
        round_to_bfloat16(grad.data_ptr<float>(), V, count, V, static_cast<float>(g),
                          reinterpret_cast<uint16_t*>(grad_operand[begin].data_ptr()));
    }
    if (bfloat16 && rows > N) grad_operand.narrow(0, N, rows - N).zero_();  // padding adds nothing

    Tensor grad_features, grad_shared, grad_weight, grad_bias;
    if (ctx->needs_input_grad(0)) {
      grad_features = torch::empty({N, D});
      mixed_mm_out(grad_features, grad_operand, weight, alpha);
    }
    const Tensor by_row_operand =
        U > 0 ? product_operand(row_sums, shared_rows.size(0), bfloat16 ? g : 1.0) : Tensor();
    if (U > 0 && ctx->needs_input_grad(1)) {
      grad_shared = torch::empty({U, F - D});
      mixed_mm_out(grad_shared, by_row_operand, shared_weight, alpha);
    }
    if (ctx->needs_input_grad(3) && bfloat16) {
      // Inside an OutputGradientSum::Scope the products stay as they come, and the workers'
      // sum widens them (output_gradient_sum.h); otherwise widened into the column blocks.
      std::vector<Tensor> blocks{raw_product(grad_operand.t(), features)};
      if (U > 0) blocks.push_back(raw_product(by_row_operand.t(), shared_rows));
      if (!leave_output_gradient(ctx->saved_data["weight"].toTensor(), blocks)) {
        grad_weight = torch::empty({V, F});
        copy_product_rows(grad_weight.narrow(1, 0, D), blocks[0], 0);
        if (U > 0) copy_product_rows(grad_weight.narrow(1, D, F - D), blocks[1], 0);
      }
    } else if (ctx->needs_input_grad(3)) {
      // Straight into column blocks: BLAS writes a row-major block with a row stride.
      grad_weight = torch::empty({V, F});
      mixed_mm_out(grad_weight.narrow(1, 0, D), grad_operand.t(), features, alpha);
      if (U > 0)
        mixed_mm_out(grad_weight.narrow(1, D, F - D), by_row_operand.t(), shared_rows, alpha);
    }
    // The rows summed by token add up to the same column sums, from fewer rows.
    if (ctx->needs_input_grad(4)) grad_bias = row_sums.sum(0).mul_(g);
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
