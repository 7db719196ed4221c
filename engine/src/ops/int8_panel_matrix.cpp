#include "ops/int8_panel_matrix.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>

#include "attnscope/cpu_dispatch.h"
#include "ops/step_kernels.h"
#include "ops/vector_kernels.h"

namespace attnscope {
namespace {

constexpr int64_t kBlockRows = 16;    // one register's 32-bit lanes
constexpr int64_t kLaneColumns = 4;   // the bytes one lane's dot product takes
constexpr int64_t kMaxVectors = 6;    // input vectors per pass: 12 accumulators, 2 per vector
constexpr int32_t kShift = 128;       // VNNI multiplies unsigned by signed bytes
constexpr int64_t kPairsPerTask = 8;  // 256 rows: a thread's share is at least this

int8_t round_to_int8(float value, float scale) {
  return static_cast<int8_t>(std::clamp(std::nearbyint(value / scale), -127.0f, 127.0f));
}

float scale_of(const float* values, int64_t count) {
  float largest = 0.0f;
  for (int64_t i = 0; i < count; ++i) largest = std::max(largest, std::fabs(values[i]));
  // An all-zero vector keeps scale 1 and zeros; 127, not 128, keeps the steps symmetric.
  return largest > 0.0f ? largest / 127.0f : 1.0f;
}

}  // namespace

struct Int8PanelMatrix::Inputs {
  int64_t count = 0;
  std::vector<uint8_t> values;  // [count][padded_columns], each rounded value + 128
  std::vector<float> scales;
};

bool Int8PanelMatrix::available() {
#ifdef ATTNSCOPE_VECTOR_KERNELS
  return has_int8_dot_products();
#else
  return false;
#endif
}

Int8PanelMatrix::Int8PanelMatrix(const torch::Tensor& weight)
    : rows_(weight.size(0)), columns_(weight.size(1)) {
  padded_rows_ = (rows_ + 2 * kBlockRows - 1) / (2 * kBlockRows) * (2 * kBlockRows);
  padded_columns_ = (columns_ + kLaneColumns - 1) / kLaneColumns * kLaneColumns;
  exact_ = weight.detach().to(torch::kFloat).contiguous();
  const float* in = exact_.data_ptr<float>();
  values_.assign(static_cast<size_t>(rows_ * padded_columns_), 0);
  scales_.resize(static_cast<size_t>(rows_));
  row_sums_.resize(static_cast<size_t>(rows_));
  for (int64_t r = 0; r < rows_; ++r) {
    const float* row = in + r * columns_;
    const float scale = scale_of(row, columns_);
    scales_[static_cast<size_t>(r)] = scale;
    int32_t sum = 0;
    for (int64_t k = 0; k < columns_; ++k) {
      const int8_t q = round_to_int8(row[k], scale);
      values_[static_cast<size_t>(r * padded_columns_ + k)] = q;
      sum += q;
    }
    row_sums_[static_cast<size_t>(r)] = sum;
  }
  // Padding rows and columns stay zero: they add nothing to any sum.
  const int64_t quads = padded_columns_ / kLaneColumns;
  panels_.assign(static_cast<size_t>(padded_rows_ * padded_columns_), 0);
  for (int64_t r = 0; r < rows_; ++r)
    for (int64_t k = 0; k < columns_; ++k) {
      const int64_t block = r / kBlockRows, lane = r % kBlockRows;
      const int64_t at = ((block * quads + k / kLaneColumns) * kBlockRows + lane) * kLaneColumns +
                         k % kLaneColumns;
      panels_[static_cast<size_t>(at)] = values_[static_cast<size_t>(r * padded_columns_ + k)];
    }
}

Int8PanelMatrix::Inputs Int8PanelMatrix::quantize(const torch::Tensor& x) const {
  TORCH_CHECK(x.dim() == 2 && x.size(1) == columns_, "Int8PanelMatrix: size mismatch");
  const torch::Tensor input = x.to(torch::kFloat).contiguous();
  Inputs out;
  out.count = input.size(0);
  out.values.assign(static_cast<size_t>(out.count * padded_columns_), kShift);  // zeros
  out.scales.resize(static_cast<size_t>(out.count));
  for (int64_t i = 0; i < out.count; ++i) {
    const float* row = input.data_ptr<float>() + i * columns_;
    const float scale = scale_of(row, columns_);
    out.scales[static_cast<size_t>(i)] = scale;
    for (int64_t k = 0; k < columns_; ++k)
      out.values[static_cast<size_t>(i * padded_columns_ + k)] =
          static_cast<uint8_t>(round_to_int8(row[k], scale) + kShift);
  }
  return out;
}

float Int8PanelMatrix::finish(int32_t sum, int64_t row, float input_scale) const {
  const int32_t exact_sum = sum - kShift * row_sums_[static_cast<size_t>(row)];
  return static_cast<float>(exact_sum) * scales_[static_cast<size_t>(row)] * input_scale;
}

torch::Tensor Int8PanelMatrix::portable_multiply(const torch::Tensor& x) const {
  const Inputs in = quantize(x);
  torch::Tensor y = torch::empty({in.count, rows_});
  float* out = y.data_ptr<float>();
  for (int64_t i = 0; i < in.count; ++i)
    for (int64_t r = 0; r < rows_; ++r) {
      int32_t sum = 0;
      for (int64_t k = 0; k < padded_columns_; ++k)
        sum += static_cast<int32_t>(in.values[static_cast<size_t>(i * padded_columns_ + k)]) *
               values_[static_cast<size_t>(r * padded_columns_ + k)];
      out[i * rows_ + r] = finish(sum, r, in.scales[static_cast<size_t>(i)]);
    }
  return y;
}

#ifdef ATTNSCOPE_VECTOR_KERNELS
namespace {

// Rows [block·16, block·16 + 32) against `Vectors` inputs: two registers of 16 row sums per
// input, the weights read once for all of them.
template <int Vectors>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void panel_pass(
    const int8_t* panels, int64_t block, int64_t quads, const uint8_t* inputs, int64_t input_stride,
    int32_t* sums /* [Vectors][32] */) {
  __m512i acc[Vectors][2];
  for (int i = 0; i < Vectors; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_si512();
  const int8_t* first = panels + block * quads * 64;
  const int8_t* second = first + quads * 64;
  for (int64_t q = 0; q < quads; ++q) {
    const __m512i w0 = _mm512_loadu_si512(first + q * 64);
    const __m512i w1 = _mm512_loadu_si512(second + q * 64);
    for (int i = 0; i < Vectors; ++i) {
      int32_t quad;
      __builtin_memcpy(&quad, inputs + i * input_stride + q * 4, sizeof quad);
      const __m512i x = _mm512_set1_epi32(quad);
      acc[i][0] = _mm512_dpbusd_epi32(acc[i][0], x, w0);
      acc[i][1] = _mm512_dpbusd_epi32(acc[i][1], x, w1);
    }
  }
  for (int i = 0; i < Vectors; ++i) {
    _mm512_storeu_si512(sums + i * 32, acc[i][0]);
    _mm512_storeu_si512(sums + i * 32 + 16, acc[i][1]);
  }
}

using PanelPass = void (*)(const int8_t*, int64_t, int64_t, const uint8_t*, int64_t, int32_t*);
constexpr PanelPass kPasses[kMaxVectors] = {panel_pass<1>, panel_pass<2>, panel_pass<3>,
                                            panel_pass<4>, panel_pass<5>, panel_pass<6>};

}  // namespace
#endif  // ATTNSCOPE_VECTOR_KERNELS

torch::Tensor Int8PanelMatrix::multiply(const torch::Tensor& x) const {
#ifdef ATTNSCOPE_VECTOR_KERNELS
  TORCH_CHECK(available(), "Int8PanelMatrix: this CPU has no AVX512-VNNI");
  const Inputs in = quantize(x);
  torch::Tensor y = torch::empty({in.count, rows_});
  float* out = y.data_ptr<float>();
  const int64_t quads = padded_columns_ / kLaneColumns;
  const int64_t pairs = padded_rows_ / (2 * kBlockRows);
  at::parallel_for(0, pairs, kPairsPerTask, [&](int64_t begin, int64_t end) {
    int32_t sums[kMaxVectors * 2 * kBlockRows];
    for (int64_t pair = begin; pair < end; ++pair)
      for (int64_t first = 0; first < in.count; first += kMaxVectors) {
        const int64_t n = std::min(kMaxVectors, in.count - first);
        kPasses[n - 1](panels_.data(), 2 * pair, quads, in.values.data() + first * padded_columns_,
                       padded_columns_, sums);
        for (int64_t i = 0; i < n; ++i)
          for (int64_t lane = 0; lane < 2 * kBlockRows; ++lane) {
            const int64_t row = pair * 2 * kBlockRows + lane;
            if (row < rows_)
              out[(first + i) * rows_ + row] = finish(sums[i * 2 * kBlockRows + lane], row,
                                                      in.scales[static_cast<size_t>(first + i)]);
          }
      }
  });
  return y;
#else
  return portable_multiply(x);
#endif
}

float Int8PanelMatrix::exact_dot(int64_t row, const float* x) const {
  return step_kernels::dot(exact_.data_ptr<float>() + row * columns_, x, columns_);
}

}  // namespace attnscope
