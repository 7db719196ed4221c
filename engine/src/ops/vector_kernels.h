#pragma once
// What the hand-written matrix-vector kernels (half_matrix.cpp, int8_matrix.cpp) share.
#include <cstdint>

// The vector kernels need an x86 compiler that knows AVX2/FMA/F16C and AVX-512; elsewhere (or
// built with -DATTNSCOPE_PORTABLE_KERNELS) only the portable loops are compiled.
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && \
    !defined(ATTNSCOPE_PORTABLE_KERNELS)
#define ATTNSCOPE_VECTOR_KERNELS 1
#include <immintrin.h>
#endif

namespace attnscope::vector_kernels {

// Rows per parallel chunk: large enough that the fork costs little next to the memory reads.
constexpr int64_t kRowsPerChunk = 1024;

#ifdef ATTNSCOPE_VECTOR_KERNELS
// The sum of a register's eight lanes.
__attribute__((target("avx2,fma"))) inline float sum_lanes(__m256 v) {
  __m128 sum = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  sum = _mm_hadd_ps(sum, sum);
  sum = _mm_hadd_ps(sum, sum);
  return _mm_cvtss_f32(sum);
}

// The sum of two AVX-512 registers' lanes. Through memory, not _mm512_reduce_add_ps, whose
// GCC 12 header warns about its undefined pass-through operand.
__attribute__((target("avx512f,avx512bw,avx512vl,fma"))) inline float sum_lanes(__m512 a,
                                                                                __m512 b) {
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, _mm512_add_ps(a, b));
  return sum_lanes(_mm256_add_ps(_mm256_load_ps(lanes), _mm256_load_ps(lanes + 8)));
}
#endif

}  // namespace attnscope::vector_kernels
