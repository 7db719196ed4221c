#pragma once
// A weight matrix kept in half precision for batch-1 decoding. The output layer (vocabulary ×
// features, 8–32 MB in float32) is read once per decoded token, so decoding speed is bounded by
// memory bandwidth; reading half the bytes and widening them in registers (F16C) is about 2–3x
// faster than BLAS gemv on float32. Used only for weights that are exactly representable in
// half precision (every model loaded from a file, which stores half precision), so the results
// equal float32 arithmetic on the same weights up to summation order. The vector kernels need
// AVX-512 or AVX2/FMA/F16C (chosen at run time, cpu_dispatch.h); a portable loop does the same
// elsewhere, but there it is no faster than BLAS on float32, so the decoder uses a HalfMatrix
// only when has_vector_kernel().
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "attnscope/cpu_dispatch.h"

namespace attnscope {

class HalfMatrix {
 public:
  /// True when `weight` (float32, 2-D) survives a round trip through half precision unchanged.
  static bool is_exact_in_half(const torch::Tensor& weight);
  /// True when this build and this CPU have a vector kernel and ATTNSCOPE_ISA allows it.
  static bool has_vector_kernel();

  explicit HalfMatrix(const torch::Tensor& weight);
  /// y = bias + W x for x [columns] and bias [rows], all float32 and contiguous; returns y [rows].
  /// Uses the best kernel of kernel_isa().
  torch::Tensor multiply(const torch::Tensor& x, const torch::Tensor& bias) const;
  /// The same with the kernel of `isa`, or the best below it this CPU has (tests compare them).
  torch::Tensor multiply_with(KernelIsa isa, const torch::Tensor& x,
                              const torch::Tensor& bias) const;
  /// The same on plain arrays x [columns], bias [rows], y [rows] (the decoder's step).
  void multiply(const float* x, const float* bias, float* y) const;
  int64_t rows() const { return rows_; }

 private:
  torch::Tensor apply(const torch::Tensor& x, const torch::Tensor& bias, KernelIsa isa) const;
  void apply(const float* x, const float* bias, float* y, KernelIsa isa) const;

  int64_t rows_ = 0;
  int64_t columns_ = 0;
  std::vector<uint16_t> values_;  // row-major IEEE half
};

}  // namespace attnscope
