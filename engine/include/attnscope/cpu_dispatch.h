#pragma once
// What this CPU can do fast, and which of the engine's code paths use it.
//
// Machines of one kind differ in their CPU from day to day (AVX2 only; AVX-512 with bfloat16;
// AMX), so the choice is made at run time, once per process: the hand-written decoding kernels
// have an AVX-512, an AVX2+F16C and a portable path, and training multiplies in bfloat16 where
// the CPU does that natively. ATTNSCOPE_ISA=avx2|portable in the environment forces a lower path
// (for tests and for comparing); it never raises the path above what the CPU has.
#include <string>

namespace attnscope {

/// The instruction sets of the engine's own kernels, lowest first.
enum class KernelIsa { kPortable, kAvx2, kAvx512 };

/// The CPU's features that matter here, as it reports them.
struct CpuFeatures {
  bool avx2 = false;         // with FMA and F16C: the half-precision decoding kernel
  bool avx512 = false;       // AVX-512 F, BW and VL: the wider kernel
  bool avx512_bf16 = false;  // bfloat16 dot products in AVX-512
  bool amx_bf16 = false;     // AMX tiles for bfloat16 (oneDNN's fastest matrix products)
  bool avx512_vnni = false;  // 8-bit integer dot products in AVX-512 (int8 decoding)
};

CpuFeatures cpu_features();

/// The path the kernels take: the best this build and CPU have, lowered by ATTNSCOPE_ISA.
KernelIsa kernel_isa();

/// "avx512", "avx2" or "portable": the names ATTNSCOPE_ISA takes.
const char* kernel_isa_name(KernelIsa isa);

/// One line for logs and `bench`: the kernels' path, what forced it, and the CPU's bfloat16
/// support, e.g. "avx512 (CPU: avx2 avx512 avx512_bf16 amx_bf16)".
std::string kernel_isa_summary();

/// Empty, or the problem with ATTNSCOPE_ISA (an unknown name) in one line; the engine then uses
/// the CPU's best path. attnscope-cli refuses to run with it; the app warns once.
std::string kernel_isa_environment_problem();

/// The precision of training's matrix products.
enum class Precision {
  kFloat32,
  kBFloat16,  // bfloat16 operands, float32 accumulation, weights and optimizer in float32
};

/// True when bfloat16 products are native here (AVX512-BF16 or AMX) and ATTNSCOPE_ISA does not
/// hold the engine below AVX-512: where `auto` chooses bfloat16.
bool has_native_bfloat16();

/// True when the CPU has AVX512-VNNI and ATTNSCOPE_ISA does not hold the engine below AVX-512:
/// where int8 decoding multiplies the context's columns in 8-bit integers (int8_panel_matrix.h).
bool has_int8_dot_products();

/// "auto" (bfloat16 where has_native_bfloat16(), else float32), "fp32" or "bf16"; throws
/// std::invalid_argument naming the value otherwise. "bf16" works on any CPU, only slowly where
/// the products are not native.
Precision parse_precision(const std::string& name);

/// "fp32" or "bf16".
const char* precision_name(Precision precision);

/// The output layer's weights in decoding (issue 32).
/// kAsStored: as the model stores them (half precision, multiplied exactly in float32 by a batch
///   of one); batched greedy search, where bfloat16 products are native, first multiplies them
///   rounded to bfloat16 and then computes each row's 8 largest logits again in float32.
/// kInt8: rounded to 8-bit integers with a scale per row (half the bytes to read per token), the
///   8 largest logits again from the stored weights; one sentence at a time.
/// kFloat32: every logit in float32, on every path.
enum class OutputWeights { kAsStored, kInt8, kFloat32 };

/// "stored", "int8" or "fp32"; throws std::invalid_argument naming the value otherwise.
OutputWeights parse_output_weights(const std::string& name);

}  // namespace attnscope
