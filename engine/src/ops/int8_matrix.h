#pragma once
// A weight matrix kept in 8-bit integers for batch-1 decoding (issue 32): one scale per row
// (the row's largest magnitude over 127), each weight rounded to the nearest step, as
// CTranslate2's int8 weights. The output layer is read once per decoded token, so decoding is
// bound by memory bandwidth; a quarter of float32's bytes, half of half precision's. Unlike
// HalfMatrix this changes the weights (by at most half a step per element), so the decoder uses
// it only when asked (OutputWeights::kInt8). The input vector stays float32: each
// weight is widened in registers and multiplied in float32, so only the weights' rounding
// differs from the half-precision product.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "attnscope/cpu_dispatch.h"

namespace attnscope {

class Int8Matrix {
 public:
  /// `weight`: float32, 2-D.
  explicit Int8Matrix(const torch::Tensor& weight);
  /// y = bias + W x for x [columns] and bias [rows], all float32 and contiguous; returns y [rows].
  /// Uses the best kernel of kernel_isa().
  torch::Tensor multiply(const torch::Tensor& x, const torch::Tensor& bias) const;
  /// The same with the kernel of `isa`, or the best below it this CPU has (tests compare them).
  torch::Tensor multiply_with(KernelIsa isa, const torch::Tensor& x,
                              const torch::Tensor& bias) const;
  /// multiply() on plain arrays x [columns], bias [rows], y [rows] (the decoder's step).
  void multiply(const float* x, const float* bias, float* y) const;
  /// Row `row` of the unrounded weights times x [columns] (no bias). The decoder computes its
  /// largest logits again with it, so rounding cannot change which token ranks first unless it
  /// moved the true first below those few.
  float exact_dot(int64_t row, const float* x) const;
  /// The weights as the kernels see them, float32 [rows, columns] (tests).
  torch::Tensor dequantized() const;

 private:
  void apply(KernelIsa isa, const float* x, const float* bias, float* y) const;

  int64_t rows_ = 0;
  int64_t columns_ = 0;
  std::vector<int8_t> values_;  // row-major
  std::vector<float> scales_;   // one per row
  torch::Tensor exact_;         // the unrounded weights (shares the model's storage)
};

}  // namespace attnscope
