#pragma once
// Mixed-precision training: bfloat16 matrix products with float32 accumulation, float32 for
// everything else (master weights, loss, softmax, optimizer state), as PyTorch's CPU autocast.
//
// Why: where the CPU has AMX or AVX512-BF16, oneDNN multiplies bfloat16 matrices several times
// faster than float32 (LibTorch's 2048² product: 1,368 against 312 GFLOP/s on AMX), and the
// output layer's products are most of a training batch. The engine's hand-written autograd
// functions make their products through these calls; a MatmulPrecisionScope on the thread
// chooses bfloat16 for them, and without one they are the float32 products they always were.
//
// oneDNN compiles a kernel for every new shape of a bfloat16 product (~3 ms each here), and a
// training batch's products have a shape of their own (its count of real positions), so in
// bfloat16 a product's varying dimension is padded with zero rows to a multiple of 64
// (product_rows): the shapes repeat and oneDNN's cache keeps their kernels.
#include <torch/torch.h>

#include "attnscope/cpu_dispatch.h"

namespace attnscope {

/// The precision of the products made on the calling thread for the life of this object.
class MatmulPrecisionScope {
 public:
  explicit MatmulPrecisionScope(Precision precision);
  ~MatmulPrecisionScope();
  MatmulPrecisionScope(const MatmulPrecisionScope&) = delete;
  MatmulPrecisionScope& operator=(const MatmulPrecisionScope&) = delete;

 private:
  Precision previous_;
};

/// The calling thread's precision (float32 outside every scope).
Precision matmul_precision();

/// How many rows an operand of `rows` rows gets: rounded up to a multiple of `multiple` (64
/// unless given) in bfloat16, `rows` itself in float32.
int64_t product_rows(int64_t rows, int64_t multiple = 64);

/// `tensor` [R,C] times `scale` as the thread's products take it: in float32 the tensor itself
/// (scaled); in bfloat16 a rounded copy of `rows` ≥ R rows, the rows beyond R zero. For an
/// operand of several products, made once.
torch::Tensor product_operand(const torch::Tensor& tensor, int64_t rows, double scale = 1.0);

/// a · b [M,N] in float32 for a [M,K] and b [K,N] (either may be a product_operand()).
torch::Tensor mixed_mm(const torch::Tensor& a, const torch::Tensor& b);

/// out = alpha · (a · b)'s first out.size(0) rows (out float32, its old contents ignored).
void mixed_mm_out(torch::Tensor out, const torch::Tensor& a, const torch::Tensor& b,
                  double alpha = 1.0);

/// a · b as the thread's precision makes it: float32, or in bfloat16 the product's own
/// bfloat16 matrix, not yet widened (for a caller that widens it piece by piece, in cache).
torch::Tensor raw_product(const torch::Tensor& a, const torch::Tensor& b);

/// out [R,C] (float32, rows of adjacent elements) = rows first_row … first_row + R − 1 of a
/// raw_product(); nothing to do when out is those very rows of a float32 product.
void copy_product_rows(torch::Tensor out, const torch::Tensor& product, int64_t first_row);

/// bias + input · weightᵀ for input [..., K], weight [N,K] and bias [N] (or undefined: none),
/// differentiable in all three. In float32 torch's own matmul. In bfloat16 one autograd node
/// whose three products (forward; backward, the input's and the weight's gradients) take
/// bfloat16 operands, the input's rows padded to a multiple of `row_multiple` (product_rows).
/// weight_operand: product_operand(weight, N), when several products share one weight (a
/// recurrence's steps); undefined: made here.
torch::Tensor mixed_linear(const torch::Tensor& input, const torch::Tensor& weight,
                           const torch::Tensor& bias, const torch::Tensor& weight_operand = {},
                           int64_t row_multiple = 64);

}  // namespace attnscope
