#include "attnscope/cpu_dispatch.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "attnscope/errors.h"

// The vector kernels need an x86 compiler that knows AVX2/AVX-512; elsewhere (or built with
// -DATTNSCOPE_PORTABLE_KERNELS) only the portable loops are compiled.
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && \
    !defined(ATTNSCOPE_PORTABLE_KERNELS)
#define ATTNSCOPE_VECTOR_KERNELS 1
#include <cpuid.h>
#endif

namespace attnscope {
namespace {

// AMX needs the OS to enable its tile state for the process (Linux: arch_prctl), which oneDNN
// does itself; cpuid says whether the CPU has it. GCC 12's __builtin_cpu_supports does not know
// the AMX and AVX512-BF16 bits, so they are read from cpuid leaf 7 directly.
CpuFeatures detect() {
  CpuFeatures f;
#ifdef ATTNSCOPE_VECTOR_KERNELS
  f.avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("f16c");
  f.avx512 = f.avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl");
  f.avx512_vnni = f.avx512 && __builtin_cpu_supports("avx512vnni");
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) f.amx_bf16 = f.avx512 && (d >> 22 & 1);
  if (__get_cpuid_count(7, 1, &a, &b, &c, &d)) f.avx512_bf16 = f.avx512 && (a >> 5 & 1);
#endif
  return f;
}

KernelIsa best_isa(const CpuFeatures& f) {
  return f.avx512 ? KernelIsa::kAvx512 : f.avx2 ? KernelIsa::kAvx2 : KernelIsa::kPortable;
}

struct IsaChoice {
  KernelIsa isa;
  bool forced = false;
  std::string problem;
};

IsaChoice choose() {
  const KernelIsa best = best_isa(cpu_features());
  IsaChoice choice{best, false, {}};
  const char* forced = std::getenv("ATTNSCOPE_ISA");
  if (forced == nullptr || *forced == '\0') return choice;
  for (KernelIsa isa : {KernelIsa::kPortable, KernelIsa::kAvx2, KernelIsa::kAvx512})
    if (std::strcmp(forced, kernel_isa_name(isa)) == 0) {
      // A forced path above the CPU's best would crash on an illegal instruction.
      choice.isa = isa < best ? isa : best;
      choice.forced = isa < best;
      return choice;
    }
  choice.problem =
      std::string("ATTNSCOPE_ISA='") + forced + "' is not one of avx512, avx2, portable";
  return choice;
}

const IsaChoice& isa_choice() {
  static const IsaChoice choice = choose();
  return choice;
}

}  // namespace

CpuFeatures cpu_features() {
  static const CpuFeatures features = detect();
  return features;
}

KernelIsa kernel_isa() { return isa_choice().isa; }

const char* kernel_isa_name(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::kAvx512:
      return "avx512";
    case KernelIsa::kAvx2:
      return "avx2";
    case KernelIsa::kPortable:
      break;
  }
  return "portable";
}

std::string kernel_isa_summary() {
#ifdef ATTNSCOPE_VECTOR_KERNELS
  const CpuFeatures f = cpu_features();
  std::string cpu;
  for (const auto& [has, name] : {std::pair{f.avx2, "avx2"},
                                  {f.avx512, "avx512"},
                                  {f.avx512_bf16, "avx512_bf16"},
                                  {f.amx_bf16, "amx_bf16"},
                                  {f.avx512_vnni, "avx512_vnni"}})
    if (has) cpu += std::string(cpu.empty() ? "" : " ") + name;
  std::string summary = kernel_isa_name(kernel_isa());
  if (isa_choice().forced) summary += " (forced by ATTNSCOPE_ISA)";
  return summary + " (CPU: " + (cpu.empty() ? "none of avx2, avx512" : cpu) + ")";
#else
  return "portable (built without the vector kernels)";
#endif
}

std::string kernel_isa_environment_problem() { return isa_choice().problem; }

bool has_native_bfloat16() {
  const CpuFeatures f = cpu_features();
  return kernel_isa() == KernelIsa::kAvx512 && (f.avx512_bf16 || f.amx_bf16);
}

bool has_int8_dot_products() {
  return kernel_isa() == KernelIsa::kAvx512 && cpu_features().avx512_vnni;
}

Precision parse_precision(const std::string& name) {
  if (name == "auto") return has_native_bfloat16() ? Precision::kBFloat16 : Precision::kFloat32;
  if (name == "fp32") return Precision::kFloat32;
  if (name == "bf16") return Precision::kBFloat16;
  ATTNSCOPE_THROW_SETTING("precision", "unknown precision '", name, "' (auto, fp32, bf16)");
}

OutputWeights parse_output_weights(const std::string& name) {
  if (name == "stored") return OutputWeights::kAsStored;
  if (name == "int8") return OutputWeights::kInt8;
  if (name == "fp32") return OutputWeights::kFloat32;
  ATTNSCOPE_THROW_SETTING("output_weights", "unknown output weights '", name,
                          "' (stored, int8, fp32)");
}

const char* precision_name(Precision precision) {
  return precision == Precision::kBFloat16 ? "bf16" : "fp32";
}

}  // namespace attnscope
