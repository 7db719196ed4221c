#pragma once
// A weight matrix in 8-bit integers multiplied by several vectors at once with AVX512-VNNI
// (issue 32): with int8 output weights, the per-sentence product of the output layer's context
// columns with every encoder state (DecoderContext::context_logits).
//
// Why: that product (V × 2H weights times one vector per source position) took a quarter of a
// token's time in float32 BLAS, which packs the whole 16 MB matrix again on every call. Here
// the weights are packed once, in the order VNNI reads them (16 rows × 4 columns per 64-byte
// register), and each input vector is rounded to 8 bits with a scale of its own, as
// CTranslate2 does for its int8 products: one instruction then does 64 multiply-adds (with
// this, int8 decoding at bench's shape went from 0.32 to 0.28 ms a token). Both roundings change
// the values a little; the decoder computes its largest logits again from the unrounded weights
// (exact_dot), as with Int8Matrix.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace attnscope {

class Int8PanelMatrix {
 public:
  /// True when this build and CPU have the VNNI kernel (has_int8_dot_products()).
  static bool available();

  /// `weight`: float32 [rows, columns], any strides.
  explicit Int8PanelMatrix(const torch::Tensor& weight);
  /// x [n, columns] float32 -> [n, rows]: row i is W x[i] with W and x[i] rounded to 8 bits.
  /// Needs available(); portable_multiply() is the same arithmetic in plain loops (tests).
  torch::Tensor multiply(const torch::Tensor& x) const;
  torch::Tensor portable_multiply(const torch::Tensor& x) const;
  /// Row `row` of the unrounded weights times x [columns].
  float exact_dot(int64_t row, const float* x) const;
  int64_t rows() const { return rows_; }
  int64_t columns() const { return columns_; }
  /// Bytes multiply() reads of the weights.
  int64_t weight_bytes() const { return static_cast<int64_t>(panels_.size()); }

 private:
  struct Inputs;  // x rounded to 8 bits, shifted to unsigned, and each row's scale
  Inputs quantize(const torch::Tensor& x) const;
  float finish(int32_t sum, int64_t row, float input_scale) const;

  int64_t rows_ = 0;
  int64_t columns_ = 0;
  int64_t padded_rows_ = 0;        // a multiple of 32 (two registers' rows per block)
  int64_t padded_columns_ = 0;     // a multiple of 4 (one 32-bit lane's columns)
  std::vector<int8_t> panels_;     // [padded_rows/16][padded_columns/4][16][4]
  std::vector<int8_t> values_;     // row-major [rows][padded_columns], for the portable loops
  std::vector<float> scales_;      // per row
  std::vector<int32_t> row_sums_;  // Σ of each row's integers: undoes the inputs' shift
  torch::Tensor exact_;            // contiguous float32 [rows, columns]
};

}  // namespace attnscope
