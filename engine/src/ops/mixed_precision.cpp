#include "ops/mixed_precision.h"

#include "ops/bfloat16_conversion.h"

namespace attnscope {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

thread_local Precision current = Precision::kFloat32;

bool bfloat16() { return current == Precision::kBFloat16; }

// `tensor` [R,C] (float32) times `scale`, rounded into a dense bfloat16 [rows,C] whose rows
// past R are zero: one pass (bfloat16_conversion.h). Dense, because oneDNN's AMX kernels take no
// row stride but the matrix's own width.
Tensor rounded(const Tensor& tensor, int64_t rows, double scale) {
  const Tensor source = tensor.scalar_type() == torch::kFloat && tensor.stride(1) == 1
                            ? tensor
                            : tensor.to(torch::kFloat).contiguous();
  const int64_t R = source.size(0), C = source.size(1);
  Tensor out = torch::empty({rows, C}, torch::kBFloat16);
  round_to_bfloat16(source.data_ptr<float>(), source.stride(0), R, C, static_cast<float>(scale),
                    reinterpret_cast<uint16_t*>(out.data_ptr()));
  if (rows > R) out.narrow(0, R, rows - R).zero_();
  return out;
}

// An operand as bfloat16: itself when it is already (a product_operand()), else rounded.
Tensor as_bfloat16(const Tensor& operand) {
  return operand.scalar_type() == torch::kBFloat16 ? operand
                                                   : rounded(operand, operand.size(0), 1.0);
}

// out = alpha · the first out.size(0) rows of a bfloat16 product (dense, as torch::mm makes it).
void widen_into(Tensor& out, const Tensor& product, double alpha) {
  TORCH_CHECK(out.scalar_type() == torch::kFloat && (out.size(1) <= 1 || out.stride(1) == 1),
              "mixed precision: a float32 output with rows of adjacent elements expected");
  TORCH_CHECK(
      product.is_contiguous() && product.size(1) == out.size(1) && product.size(0) >= out.size(0),
      "mixed precision: the product does not fit its output");
  widen_from_bfloat16(reinterpret_cast<const uint16_t*>(product.data_ptr()), out.size(0),
                      out.size(1), static_cast<float>(alpha), out.data_ptr<float>(), out.stride(0));
}

// The first `rows` rows of a bfloat16 product as a new float32 matrix.
Tensor widened(const Tensor& product, int64_t rows) {
  Tensor out = torch::empty({rows, product.size(1)}, torch::kFloat);
  widen_into(out, product, 1.0);
  return out;
}

// mixed_linear() in bfloat16. The operands are kept in bfloat16 for backward: its products take
// them again, and they are half the bytes.
class BFloat16Linear : public torch::autograd::Function<BFloat16Linear> {
 public:
  static Tensor forward(AutogradContext* ctx, const Tensor& input, const Tensor& weight,
                        const c10::optional<Tensor>& bias, const Tensor& weight_operand,
                        int64_t row_multiple) {
    const int64_t M = input.size(0), rows = product_rows(M, row_multiple);
    const Tensor input_operand = product_operand(input, rows);
    Tensor output = widened(torch::mm(input_operand, weight_operand.t()), M);
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
      grad_input = widened(torch::mm(grad_operand, weight_operand), M);
    }
    if (ctx->needs_input_grad(1)) {
      const Tensor input_operand = ctx->saved_data["input_operand"].toTensor();
      const Tensor product = torch::mm(grad_operand.t(), input_operand);
      grad_weight = widened(product, product.size(0));
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
  return rounded(tensor, rows, scale);
}

torch::Tensor mixed_mm(const torch::Tensor& a, const torch::Tensor& b) {
  if (!bfloat16()) return torch::mm(a, b);
  return widened(torch::mm(as_bfloat16(a), as_bfloat16(b)), a.size(0));
}

void mixed_mm_out(torch::Tensor out, const torch::Tensor& a, const torch::Tensor& b, double alpha) {
  if (!bfloat16()) {
    torch::addmm_out(out, out, a, b, /*beta=*/0.0, alpha);
    return;
  }
  widen_into(out, torch::mm(as_bfloat16(a), as_bfloat16(b)), alpha);
}

torch::Tensor raw_product(const torch::Tensor& a, const torch::Tensor& b) {
  return bfloat16() ? torch::mm(as_bfloat16(a), as_bfloat16(b)) : torch::mm(a, b);
}

void copy_product_rows(torch::Tensor out, const torch::Tensor& product, int64_t first_row) {
  const torch::Tensor rows = product.narrow(0, first_row, out.size(0));
  if (product.scalar_type() == torch::kBFloat16)
    widen_into(out, rows, 1.0);
  else if (!out.is_same(rows) && out.data_ptr() != rows.data_ptr())
    out.copy_(rows);
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
