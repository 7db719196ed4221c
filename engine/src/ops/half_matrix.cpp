#include "ops/half_matrix.h"

#include <ATen/Parallel.h>
#include <c10/util/Half.h>

#include <algorithm>
#include <cstring>

#include "ops/vector_kernels.h"

namespace attnscope {
namespace {

#ifdef ATTNSCOPE_VECTOR_KERNELS
__attribute__((target("avx2,fma,f16c"))) void rows_avx2(const uint16_t* weights, const float* x,
                                                        const float* bias, float* y, int64_t begin,
                                                        int64_t end, int64_t columns) {
  const int64_t vectorized = columns / 16 * 16;
  for (int64_t r = begin; r < end; ++r) {
    const uint16_t* w = weights + r * columns;
    __m256 sum0 = _mm256_setzero_ps(), sum1 = _mm256_setzero_ps();
    for (int64_t k = 0; k < vectorized; k += 16) {
      const __m256 w0 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k)));
      const __m256 w1 =
          _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k + 8)));
      sum0 = _mm256_fmadd_ps(w0, _mm256_loadu_ps(x + k), sum0);
      sum1 = _mm256_fmadd_ps(w1, _mm256_loadu_ps(x + k + 8), sum1);
    }
    float total = vector_kernels::sum_lanes(_mm256_add_ps(sum0, sum1));
    for (int64_t k = vectorized; k < columns; ++k) total += _cvtsh_ss(w[k]) * x[k];
    y[r] = bias[r] + total;
  }
}

// The same with 32 columns per iteration in 512-bit registers: on a CPU with AVX-512 twice
// the work per instruction, so one core keeps up with more of the memory's bandwidth.
__attribute__((target("avx512f,avx512bw,avx512vl,fma,f16c"))) void rows_avx512(
    const uint16_t* weights, const float* x, const float* bias, float* y, int64_t begin,
    int64_t end, int64_t columns) {
  const int64_t vectorized = columns / 32 * 32;
  for (int64_t r = begin; r < end; ++r) {
    const uint16_t* w = weights + r * columns;
    __m512 sum0 = _mm512_setzero_ps(), sum1 = _mm512_setzero_ps();
    for (int64_t k = 0; k < vectorized; k += 32) {
      // The zero-masked form of _mm512_cvtph_ps (same instruction), whose GCC 12 header
      // warns about its undefined pass-through operand.
      const __m512 w0 = _mm512_maskz_cvtph_ps(
          0xFFFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + k)));
      const __m512 w1 = _mm512_maskz_cvtph_ps(
          0xFFFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + k + 16)));
      sum0 = _mm512_fmadd_ps(w0, _mm512_loadu_ps(x + k), sum0);
      sum1 = _mm512_fmadd_ps(w1, _mm512_loadu_ps(x + k + 16), sum1);
    }
    float total = vector_kernels::sum_lanes(sum0, sum1);
    for (int64_t k = vectorized; k < columns; ++k) total += _cvtsh_ss(w[k]) * x[k];
    y[r] = bias[r] + total;
  }
}

#endif  // ATTNSCOPE_VECTOR_KERNELS

void rows_portable(const uint16_t* weights, const float* x, const float* bias, float* y,
                   int64_t begin, int64_t end, int64_t columns) {
  for (int64_t r = begin; r < end; ++r) {
    const uint16_t* w = weights + r * columns;
    float total = 0.0f;
    for (int64_t k = 0; k < columns; ++k)
      total += static_cast<float>(c10::Half(w[k], c10::Half::from_bits())) * x[k];
    y[r] = bias[r] + total;
  }
}

}  // namespace

bool HalfMatrix::has_vector_kernel() {
#ifdef ATTNSCOPE_VECTOR_KERNELS
  return kernel_isa() != KernelIsa::kPortable;
#else
  return false;
#endif
}

bool HalfMatrix::is_exact_in_half(const torch::Tensor& weight) {
  return weight.dim() == 2 && weight.scalar_type() == torch::kFloat &&
         torch::equal(weight.to(torch::kHalf).to(torch::kFloat), weight);
}

HalfMatrix::HalfMatrix(const torch::Tensor& weight)
    : rows_(weight.size(0)), columns_(weight.size(1)), values_(weight.numel()) {
  const torch::Tensor half = weight.detach().to(torch::kHalf).contiguous();
  if (!values_.empty())  // an empty tensor's data pointer is null, which memcpy may not take
    std::memcpy(values_.data(), half.data_ptr(), values_.size() * sizeof(uint16_t));
}

torch::Tensor HalfMatrix::multiply(const torch::Tensor& x, const torch::Tensor& bias) const {
  return apply(x, bias, has_vector_kernel() ? kernel_isa() : KernelIsa::kPortable);
}

torch::Tensor HalfMatrix::multiply_with(KernelIsa isa, const torch::Tensor& x,
                                        const torch::Tensor& bias) const {
  return apply(x, bias, has_vector_kernel() ? std::min(isa, kernel_isa()) : KernelIsa::kPortable);
}

void HalfMatrix::multiply(const float* x, const float* bias, float* y) const {
  apply(x, bias, y, has_vector_kernel() ? kernel_isa() : KernelIsa::kPortable);
}

torch::Tensor HalfMatrix::apply(const torch::Tensor& x, const torch::Tensor& bias,
                                KernelIsa isa) const {
  TORCH_CHECK(x.numel() == columns_ && bias.numel() == rows_, "HalfMatrix: size mismatch");
  const torch::Tensor input = x.contiguous();
  const torch::Tensor offset = bias.contiguous();
  torch::Tensor y = torch::empty({rows_}, torch::kFloat);
  apply(input.data_ptr<float>(), offset.data_ptr<float>(), y.data_ptr<float>(), isa);
  return y;
}

// isa is unused when the vector kernels are not compiled in.
void HalfMatrix::apply(const float* x, const float* bias, float* y,
                       [[maybe_unused]] KernelIsa isa) const {
  at::parallel_for(0, rows_, vector_kernels::kRowsPerChunk, [&](int64_t begin, int64_t end) {
#ifdef ATTNSCOPE_VECTOR_KERNELS
    if (isa == KernelIsa::kAvx512)
      return rows_avx512(values_.data(), x, bias, y, begin, end, columns_);
    if (isa == KernelIsa::kAvx2) return rows_avx2(values_.data(), x, bias, y, begin, end, columns_);
#endif
    rows_portable(values_.data(), x, bias, y, begin, end, columns_);
  });
}

}  // namespace attnscope
