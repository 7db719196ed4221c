#include "ops/mixed_precision.h"

namespace attnscope {
namespace {

thread_local Precision current = Precision::kFloat32;

bool bfloat16() { return current == Precision::kBFloat16; }

constexpr int64_t kRowStep = 64;  // see the header: few shapes, each compiled once

}  // namespace

MatmulPrecisionScope::MatmulPrecisionScope(Precision precision) : previous_(current) {
  current = precision;
}

MatmulPrecisionScope::~MatmulPrecisionScope() { current = previous_; }

Precision matmul_precision() { return current; }

int64_t product_rows(int64_t rows) {
  return bfloat16() ? (rows + kRowStep - 1) / kRowStep * kRowStep : rows;
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

}  // namespace attnscope
