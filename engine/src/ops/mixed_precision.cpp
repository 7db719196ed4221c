#include "ops/mixed_precision.h"

namespace attnscope {
namespace {

thread_local Precision current = Precision::kFloat32;

bool bfloat16() { return current == Precision::kBFloat16; }

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// mixed_linear() in bfloat16. The operands are kept in bfloat16 for backward: its products take
// them again, and they are half the bytes.
class BFloat16Linear : public torch::autograd::Function<BFloat16Linear> {
 public:
  static Tensor forward(AutogradContext* ctx, const Tensor& input, const Tensor& weight,
                        const c10::optional<Tensor>& bias, const Tensor& weight_operand,
                        int64_t row_multiple) {
    const int64_t M = input.size(0), rows = product_rows(M, row_multiple);
    const Tensor input_operand = product_operand(input, rows);
    Tensor output = torch::mm(input_operand, weight_operand.t()).narrow(0, 0, M).to(torch::kFloat);
    if (bias) output.add_(*bias);
    ctx->saved_data["weight_operand"] = weight_operand;
    if (weight.requires_grad()) ctx->saved_data["input_operand"] = input_operand;
    ctx->saved_data["rows"] = rows;
    return output;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const Tensor& grad = grad_outputs[0];
    const int64_t M = grad.size(0);
    const Tensor grad_operand = product_operand(grad, ctx->saved_data["rows"].toInt());
    Tensor grad_input, grad_weight, grad_bias;
    if (ctx->needs_input_grad(0)) {
      const Tensor weight_operand = ctx->saved_data["weight_operand"].toTensor();
      grad_input = torch::mm(grad_operand, weight_operand).narrow(0, 0, M).to(torch::kFloat);
    }
    if (ctx->needs_input_grad(1)) {
      const Tensor input_operand = ctx->saved_data["input_operand"].toTensor();
      grad_weight = torch::mm(grad_operand.t(), input_operand).to(torch::kFloat);
    }
    if (ctx->needs_input_grad(2)) grad_bias = grad.sum(0);
    return {grad_input, grad_weight, grad_bias, Tensor(), Tensor()};
  }
};

}  // namespace

MatmulPrecisionScope::MatmulPrecisionScope(Precision precision) : previous_(current) {
  current = precision;
}

MatmulPrecisionScope::~MatmulPrecisionScope() { current = previous_; }

Precision matmul_precision() { return current; }

int64_t product_rows(int64_t rows, int64_t multiple) {
  return bfloat16() ? (rows + multiple - 1) / multiple * multiple : rows;
}

torch::Tensor product_operand(const torch::Tensor& tensor, int64_t rows, double scale) {
  TORCH_CHECK(tensor.dim() == 2 && rows >= tensor.size(0),
              "product_operand: a matrix of at most `rows` rows expected");
  if (!bfloat16()) {
    TORCH_CHECK(rows == tensor.size(0), "product_operand: float32 operands are not padded");
    return scale == 1.0 ? tensor : tensor * scale;
  }
  // Scaled in float32 and rounded once. (One pass with a bfloat16 output, mul_out, measured
  // 3x slower: a mixed-type loop that does not vectorize.)
  // Dense: oneDNN's AMX kernels take no row stride but the matrix's own width.
  const torch::Tensor rounded =
      (scale == 1.0 ? tensor : tensor * scale).to(torch::kBFloat16).contiguous();
  if (rows == tensor.size(0)) return rounded;
  return torch::cat(
      {rounded, torch::zeros({rows - tensor.size(0), tensor.size(1)}, rounded.options())});
}

torch::Tensor mixed_mm(const torch::Tensor& a, const torch::Tensor& b) {
  if (!bfloat16()) return torch::mm(a, b);
  return torch::mm(a.to(torch::kBFloat16), b.to(torch::kBFloat16)).to(torch::kFloat);
}

void mixed_mm_out(torch::Tensor out, const torch::Tensor& a, const torch::Tensor& b, double alpha) {
  if (!bfloat16()) {
    torch::addmm_out(out, out, a, b, /*beta=*/0.0, alpha);
    return;
  }
  out.copy_(torch::mm(a.to(torch::kBFloat16), b.to(torch::kBFloat16)).narrow(0, 0, out.size(0)));
  if (alpha != 1.0) out.mul_(alpha);
}

torch::Tensor mixed_linear(const torch::Tensor& input, const torch::Tensor& weight,
                           const torch::Tensor& bias, const torch::Tensor& weight_operand,
                           int64_t row_multiple) {
  if (!bfloat16()) {
    const torch::Tensor product = torch::matmul(input, weight.t());
    return bias.defined() ? product + bias : product;
  }
  const int64_t K = input.size(-1);
  std::vector<int64_t> shape = input.sizes().vec();
  shape.back() = weight.size(0);
  // Inputs to autograd's custom functions are defined tensors; an absent bias is an optional.
  const c10::optional<torch::Tensor> optional_bias =
      bias.defined() ? c10::optional<torch::Tensor>(bias) : c10::nullopt;
  const torch::Tensor operand =
      weight_operand.defined() ? weight_operand : product_operand(weight.detach(), weight.size(0));
  return BFloat16Linear::apply(input.reshape({-1, K}), weight, optional_bias, operand, row_multiple)
      .view(shape);
}

}  // namespace attnscope
