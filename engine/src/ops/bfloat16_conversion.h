#pragma once
// Float32 ↔ bfloat16 conversion of matrices for mixed-precision training's products.
//
// Why: every bfloat16 product rounds its float32 operands first and widens its bfloat16
// result after. Through torch (`.to()`, `copy_`) those passes took ~14% of a training batch in
// `perf` (an 8-wide loop that emulates the rounding, and a strided copy for results written
// into column blocks), more than the passes' memory traffic needs, plus separate passes to
// scale, pad and place the results. These loops do each in one pass, 16 floats at a time
// where the CPU has AVX-512 (kernel_isa()), with torch's own rounding (to nearest, ties to
// even), so the results are the same bits as `.to(torch::kBFloat16)`'s (a NaN stays a NaN).
#include <cstdint>
#include <vector>

#include "attnscope/cpu_dispatch.h"

namespace attnscope {

/// out[r·columns + c] = bfloat16(scale · in[r·in_stride + c]) for r < rows, c < columns, with
/// the loops of `isa` or, when the CPU lacks it, of the best path below it.
void round_to_bfloat16(const float* in, int64_t in_stride, int64_t rows, int64_t columns,
                       float scale, uint16_t* out, KernelIsa isa = kernel_isa());

/// out[r·out_stride + c] = scale · float(in[r·columns + c]) for r < rows, c < columns.
void widen_from_bfloat16(const uint16_t* in, int64_t rows, int64_t columns, float scale, float* out,
                         int64_t out_stride, KernelIsa isa = kernel_isa());

/// out[r·out_stride + c] = Σₖ (addends[k][r·addend_stride + c] + float(parts[k][r·columns + c]))
/// summed in the order given, an undefined (null) addend counting as none: bfloat16 matrices,
/// each with a float32 matrix of its own, summed in float32 in one pass.
void add_bfloat16_rows(const std::vector<const uint16_t*>& parts,
                       const std::vector<const float*>& addends, int64_t addend_stride,
                       int64_t rows, int64_t columns, float* out, int64_t out_stride,
                       KernelIsa isa = kernel_isa());

}  // namespace attnscope
