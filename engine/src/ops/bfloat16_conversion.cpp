#include "ops/bfloat16_conversion.h"

#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Exception.h>

#include <algorithm>

#include "attnscope/cpu_dispatch.h"
#include "ops/vector_kernels.h"

namespace attnscope {
namespace {

// Rows per parallel chunk: at least ~64K elements, so the fork costs little next to the pass.
int64_t rows_per_chunk(int64_t columns) { return std::max<int64_t>(1, (1 << 16) / columns); }

uint16_t round_one(float x) { return c10::BFloat16(x).x; }  // torch's rounding

float widen_one(uint16_t bits) { return c10::detail::f32_from_bits(bits); }

void round_row_portable(const float* in, int64_t n, float scale, uint16_t* out) {
  for (int64_t c = 0; c < n; ++c) out[c] = round_one(in[c] * scale);
}

void widen_row_portable(const uint16_t* in, int64_t n, float scale, float* out) {
  for (int64_t c = 0; c < n; ++c)
    out[c] = scale == 1.0f ? widen_one(in[c]) : widen_one(in[c]) * scale;
}

// One row of add_bfloat16_rows(): parts and addends at `offset` (their own row strides apart).
struct RowSum {
  const std::vector<const uint16_t*>& parts;
  const std::vector<const float*>& addends;
  int64_t part_offset, addend_offset;
};

void add_row_portable(const RowSum& row, int64_t first, int64_t n, float* out) {
  for (int64_t c = first; c < n; ++c) {
    float sum = 0.0f;
    for (size_t k = 0; k < row.parts.size(); ++k) {
      const float part = widen_one(row.parts[k][row.part_offset + c]);
      sum += row.addends[k] ? row.addends[k][row.addend_offset + c] + part : part;
    }
    out[c] = sum;
  }
}

#ifdef ATTNSCOPE_VECTOR_KERNELS
// All 16 lanes: the zero-masked forms of the shifts and conversions below are the same
// instructions, without the undefined pass-through operand GCC 12's headers warn about.
constexpr __mmask16 kAll = 0xFFFF;

// c10::BFloat16's rounding, 16 lanes at a time: add 0x7FFF plus the kept part's lowest bit
// (ties to even) and keep the upper half; a NaN becomes the quiet NaN 0x7FC0.
__attribute__((target("avx512f,avx512bw,avx512vl"))) void round_row_avx512(const float* in,
                                                                           int64_t n, float scale,
                                                                           uint16_t* out) {
  const __m512 factor = _mm512_set1_ps(scale);
  const __m512i bias = _mm512_set1_epi32(0x7FFF), one = _mm512_set1_epi32(1);
  const __m256i quiet_nan = _mm256_set1_epi16(0x7FC0);
  int64_t c = 0;
  for (; c + 16 <= n; c += 16) {
    const __m512 x = _mm512_mul_ps(_mm512_loadu_ps(in + c), factor);
    const __m512i bits = _mm512_castps_si512(x);
    const __m512i lowest_kept = _mm512_and_si512(_mm512_maskz_srli_epi32(kAll, bits, 16), one);
    const __m512i rounded = _mm512_maskz_srli_epi32(
        kAll, _mm512_add_epi32(_mm512_add_epi32(bits, bias), lowest_kept), 16);
    const __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    const __m256i halves =
        _mm256_mask_mov_epi16(_mm512_maskz_cvtepi32_epi16(kAll, rounded), nan, quiet_nan);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + c), halves);
  }
  round_row_portable(in + c, n - c, scale, out + c);
}

// A bfloat16 is a float32's upper half: widened by a shift. Scaled only when asked, so that
// scale 1 keeps every bit (a multiplication would quiet a signalling NaN).
__attribute__((target("avx512f,avx512bw,avx512vl"))) void widen_row_avx512(const uint16_t* in,
                                                                           int64_t n, float scale,
                                                                           float* out) {
  const __m512 factor = _mm512_set1_ps(scale);
  int64_t c = 0;
  for (; c + 16 <= n; c += 16) {
    const __m512i wide = _mm512_maskz_cvtepu16_epi32(
        kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + c)));
    const __m512 x = _mm512_castsi512_ps(_mm512_maskz_slli_epi32(kAll, wide, 16));
    _mm512_storeu_ps(out + c, scale == 1.0f ? x : _mm512_mul_ps(x, factor));
  }
  widen_row_portable(in + c, n - c, scale, out + c);
}
__attribute__((target("avx512f,avx512bw,avx512vl"))) void add_row_avx512(const RowSum& row,
                                                                         int64_t first, int64_t n,
                                                                         float* out) {
  int64_t c = first;
  for (; c + 16 <= n; c += 16) {
    __m512 sum = _mm512_setzero_ps();
    for (size_t k = 0; k < row.parts.size(); ++k) {
      const __m512i wide = _mm512_maskz_cvtepu16_epi32(
          kAll,
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row.parts[k] + row.part_offset + c)));
      __m512 part = _mm512_castsi512_ps(_mm512_maskz_slli_epi32(kAll, wide, 16));
      if (row.addends[k])
        part = _mm512_add_ps(_mm512_loadu_ps(row.addends[k] + row.addend_offset + c), part);
      sum = _mm512_add_ps(sum, part);
    }
    _mm512_storeu_ps(out + c, sum);
  }
  add_row_portable(row, c, n, out);
}
#endif  // ATTNSCOPE_VECTOR_KERNELS

// The row loops for `isa`, as far as this CPU and build have it (kernel_isa(), which
// ATTNSCOPE_ISA can lower). Below AVX-512 the portable loops: bfloat16 training is chosen only
// on CPUs with AVX-512, and the conversions are a small part of it elsewhere.
using RoundRow = void (*)(const float*, int64_t, float, uint16_t*);
using WidenRow = void (*)(const uint16_t*, int64_t, float, float*);

RoundRow round_row([[maybe_unused]] KernelIsa isa) {
#ifdef ATTNSCOPE_VECTOR_KERNELS
  if (std::min(isa, kernel_isa()) == KernelIsa::kAvx512) return round_row_avx512;
#endif
  return round_row_portable;
}

WidenRow widen_row([[maybe_unused]] KernelIsa isa) {
#ifdef ATTNSCOPE_VECTOR_KERNELS
  if (std::min(isa, kernel_isa()) == KernelIsa::kAvx512) return widen_row_avx512;
#endif
  return widen_row_portable;
}

using AddRow = void (*)(const RowSum&, int64_t, int64_t, float*);

AddRow add_row([[maybe_unused]] KernelIsa isa) {
#ifdef ATTNSCOPE_VECTOR_KERNELS
  if (std::min(isa, kernel_isa()) == KernelIsa::kAvx512) return add_row_avx512;
#endif
  return add_row_portable;
}

}  // namespace

void round_to_bfloat16(const float* in, int64_t in_stride, int64_t rows, int64_t columns,
                       float scale, uint16_t* out, KernelIsa isa) {
  if (rows <= 0 || columns <= 0) return;
  const RoundRow round = round_row(isa);
  at::parallel_for(0, rows, rows_per_chunk(columns), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      round(in + r * in_stride, columns, scale, out + r * columns);
  });
}

void widen_from_bfloat16(const uint16_t* in, int64_t rows, int64_t columns, float scale, float* out,
                         int64_t out_stride, KernelIsa isa) {
  if (rows <= 0 || columns <= 0) return;
  const WidenRow widen = widen_row(isa);
  at::parallel_for(0, rows, rows_per_chunk(columns), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      widen(in + r * columns, columns, scale, out + r * out_stride);
  });
}

void add_bfloat16_rows(const std::vector<const uint16_t*>& parts,
                       const std::vector<const float*>& addends, int64_t addend_stride,
                       int64_t rows, int64_t columns, float* out, int64_t out_stride,
                       KernelIsa isa) {
  TORCH_CHECK(parts.size() == addends.size(), "add_bfloat16_rows: an addend per part expected");
  if (rows <= 0 || columns <= 0) return;
  const AddRow add = add_row(isa);
  at::parallel_for(0, rows, rows_per_chunk(columns), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      add(RowSum{parts, addends, r * columns, r * addend_stride}, 0, columns, out + r * out_stride);
  });
}

}  // namespace attnscope
