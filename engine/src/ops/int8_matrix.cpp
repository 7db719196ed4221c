#include "ops/int8_matrix.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>

#include "ops/step_kernels.h"
#include "ops/vector_kernels.h"

namespace attnscope {
namespace {

#ifdef ATTNSCOPE_VECTOR_KERNELS
__attribute__((target("avx2,fma"))) void rows_avx2(const int8_t* weights, const float* scales,
                                                   const float* x, const float* bias, float* y,
                                                   int64_t begin, int64_t end, int64_t columns) {
  const int64_t vectorized = columns / 16 * 16;
  for (int64_t r = begin; r < end; ++r) {
    const int8_t* w = weights + r * columns;
    __m256 sum0 = _mm256_setzero_ps(), sum1 = _mm256_setzero_ps();
    for (int64_t k = 0; k < vectorized; k += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k));
      const __m256 w0 = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(bytes));
      const __m256 w1 = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(bytes, 8)));
      sum0 = _mm256_fmadd_ps(w0, _mm256_loadu_ps(x + k), sum0);
      sum1 = _mm256_fmadd_ps(w1, _mm256_loadu_ps(x + k + 8), sum1);
    }
    float total = vector_kernels::sum_lanes(_mm256_add_ps(sum0, sum1));
    for (int64_t k = vectorized; k < columns; ++k) total += static_cast<float>(w[k]) * x[k];
    y[r] = bias[r] + scales[r] * total;
  }
}

// 32 columns per iteration in 512-bit registers.
__attribute__((target("avx512f,avx512bw,avx512vl,fma"))) void rows_avx512(
    const int8_t* weights, const float* scales, const float* x, const float* bias, float* y,
    int64_t begin, int64_t end, int64_t columns) {
  const int64_t vectorized = columns / 32 * 32;
  for (int64_t r = begin; r < end; ++r) {
    const int8_t* w = weights + r * columns;
    __m512 sum0 = _mm512_setzero_ps(), sum1 = _mm512_setzero_ps();
    for (int64_t k = 0; k < vectorized; k += 32) {
      // The zero-masked forms (same instructions): GCC 12's headers warn about the plain
      // ones' undefined pass-through operand, as in half_matrix.cpp.
      const __m512 w0 = _mm512_maskz_cvtepi32_ps(
          0xFFFF, _mm512_maskz_cvtepi8_epi32(
                      0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k))));
      const __m512 w1 = _mm512_maskz_cvtepi32_ps(
          0xFFFF, _mm512_maskz_cvtepi8_epi32(
                      0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k + 16))));
      sum0 = _mm512_fmadd_ps(w0, _mm512_loadu_ps(x + k), sum0);
      sum1 = _mm512_fmadd_ps(w1, _mm512_loadu_ps(x + k + 16), sum1);
    }
    float total = vector_kernels::sum_lanes(sum0, sum1);
    for (int64_t k = vectorized; k < columns; ++k) total += static_cast<float>(w[k]) * x[k];
    y[r] = bias[r] + scales[r] * total;
  }
}
#endif  // ATTNSCOPE_VECTOR_KERNELS

void rows_portable(const int8_t* weights, const float* scales, const float* x, const float* bias,
                   float* y, int64_t begin, int64_t end, int64_t columns) {
  for (int64_t r = begin; r < end; ++r) {
    const int8_t* w = weights + r * columns;
    float total = 0.0f;
    for (int64_t k = 0; k < columns; ++k) total += static_cast<float>(w[k]) * x[k];
    y[r] = bias[r] + scales[r] * total;
  }
}

}  // namespace

Int8Matrix::Int8Matrix(const torch::Tensor& weight)
    : rows_(weight.size(0)),
      columns_(weight.size(1)),
      values_(weight.numel()),
      scales_(static_cast<size_t>(weight.size(0))) {
  exact_ = weight.detach().to(torch::kFloat).contiguous();
  const float* in = exact_.data_ptr<float>();
  for (int64_t r = 0; r < rows_; ++r) {
    const float* row = in + r * columns_;
    float largest = 0.0f;
    for (int64_t k = 0; k < columns_; ++k) largest = std::max(largest, std::fabs(row[k]));
    // An all-zero row keeps scale 1 and zeros; 127, not 128, keeps the steps symmetric.
    const float scale = largest > 0.0f ? largest / 127.0f : 1.0f;
    scales_[static_cast<size_t>(r)] = scale;
    for (int64_t k = 0; k < columns_; ++k)
      values_[static_cast<size_t>(r * columns_ + k)] =
          static_cast<int8_t>(std::clamp(std::nearbyint(row[k] / scale), -127.0f, 127.0f));
  }
}

torch::Tensor Int8Matrix::multiply(const torch::Tensor& x, const torch::Tensor& bias) const {
  return multiply_with(KernelIsa::kAvx512, x, bias);
}

torch::Tensor Int8Matrix::multiply_with(KernelIsa isa, const torch::Tensor& x,
                                        const torch::Tensor& bias) const {
  TORCH_CHECK(x.numel() == columns_ && bias.numel() == rows_, "Int8Matrix: size mismatch");
  const torch::Tensor input = x.contiguous();
  const torch::Tensor offset = bias.contiguous();
  torch::Tensor y = torch::empty({rows_}, torch::kFloat);
  apply(isa, input.data_ptr<float>(), offset.data_ptr<float>(), y.data_ptr<float>());
  return y;
}

void Int8Matrix::multiply(const float* x, const float* bias, float* y) const {
  apply(KernelIsa::kAvx512, x, bias, y);
}

// isa is unused when the vector kernels are not compiled in.
void Int8Matrix::apply([[maybe_unused]] KernelIsa isa, const float* x, const float* bias,
                       float* y) const {
#ifdef ATTNSCOPE_VECTOR_KERNELS
  const KernelIsa path = std::min(isa, kernel_isa());
#endif
  at::parallel_for(0, rows_, vector_kernels::kRowsPerChunk, [&](int64_t begin, int64_t end) {
#ifdef ATTNSCOPE_VECTOR_KERNELS
    if (path == KernelIsa::kAvx512)
      return rows_avx512(values_.data(), scales_.data(), x, bias, y, begin, end, columns_);
    if (path == KernelIsa::kAvx2)
      return rows_avx2(values_.data(), scales_.data(), x, bias, y, begin, end, columns_);
#endif
    rows_portable(values_.data(), scales_.data(), x, bias, y, begin, end, columns_);
  });
}

float Int8Matrix::exact_dot(int64_t row, const float* x) const {
  return step_kernels::dot(exact_.data_ptr<float>() + row * columns_, x, columns_);
}

torch::Tensor Int8Matrix::dequantized() const {
  torch::Tensor out = torch::empty({rows_, columns_}, torch::kFloat);
  float* o = out.data_ptr<float>();
  for (int64_t r = 0; r < rows_; ++r)
    for (int64_t k = 0; k < columns_; ++k)
      o[r * columns_ + k] =
          scales_[static_cast<size_t>(r)] * values_[static_cast<size_t>(r * columns_ + k)];
  return out;
}

}  // namespace attnscope
