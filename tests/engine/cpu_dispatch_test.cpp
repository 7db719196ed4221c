// The run-time choice of kernels and of training's precision (cpu_dispatch.h). Whether each
// path computes the same is tested where the paths are (fast_decoding_test.cpp,
// linear_cross_entropy_test.cpp, training_equivalence_test.cpp); ATTNSCOPE_ISA, read once per
// process, in cli_kernel_paths_test.cpp.
#include "attnscope/cpu_dispatch.h"

#include <gtest/gtest.h>

#include "attnscope/errors.h"

namespace attnscope {
namespace {

TEST(CpuDispatch, ThePathIsOneTheCpuHas) {
  const CpuFeatures cpu = cpu_features();
  // AVX-512 implies the AVX2 kernel's instructions; native bfloat16 is reported within AVX-512.
  EXPECT_TRUE(!cpu.avx512 || cpu.avx2);
  EXPECT_TRUE(!(cpu.avx512_bf16 || cpu.amx_bf16) || cpu.avx512);
  const KernelIsa isa = kernel_isa();
  if (isa == KernelIsa::kAvx512) EXPECT_TRUE(cpu.avx512);
  if (isa == KernelIsa::kAvx2) EXPECT_TRUE(cpu.avx2);
  EXPECT_NE(kernel_isa_summary().find(kernel_isa_name(isa)), std::string::npos);
}

TEST(CpuDispatch, AutoChoosesBfloat16WhereItIsNative) {
  EXPECT_EQ(parse_precision("auto"),
            has_native_bfloat16() ? Precision::kBFloat16 : Precision::kFloat32);
  EXPECT_EQ(parse_precision("fp32"), Precision::kFloat32);
  EXPECT_EQ(parse_precision("bf16"), Precision::kBFloat16);
  EXPECT_STREQ(precision_name(parse_precision("bf16")), "bf16");
  try {
    parse_precision("fp16");
    ADD_FAILURE() << "fp16 accepted";
  } catch (const SettingError& e) {
    EXPECT_EQ(e.setting(), "precision");
    EXPECT_NE(std::string(e.what()).find("'fp16'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace attnscope
