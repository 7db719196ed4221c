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

// `parse` must throw a SettingError for `setting` that names `value`.
template <typename Parse>
void expect_refused(Parse parse, const std::string& setting, const std::string& value) {
  try {
    parse();
    ADD_FAILURE() << value << " accepted";
  } catch (const SettingError& e) {
    EXPECT_EQ(e.setting(), setting);
    EXPECT_NE(std::string(e.what()).find("'" + value + "'"), std::string::npos) << e.what();
  }
}

TEST(CpuDispatch, AutoChoosesBfloat16WhereItIsNative) {
  EXPECT_EQ(parse_precision("auto"),
            has_native_bfloat16() ? Precision::kBFloat16 : Precision::kFloat32);
  EXPECT_EQ(parse_precision("fp32"), Precision::kFloat32);
  EXPECT_EQ(parse_precision("bf16"), Precision::kBFloat16);
  EXPECT_STREQ(precision_name(parse_precision("bf16")), "bf16");
  expect_refused([] { parse_precision("fp16"); }, "precision", "fp16");
}

TEST(CpuDispatch, OutputWeightsAreParsedAndAnUnknownNameIsRefused) {
  EXPECT_EQ(parse_output_weights("stored"), OutputWeights::kAsStored);
  EXPECT_EQ(parse_output_weights("int8"), OutputWeights::kInt8);
  EXPECT_EQ(parse_output_weights("fp32"), OutputWeights::kFloat32);
  // A library caller's typo is refused, not taken for the stored weights.
  expect_refused([] { parse_output_weights("int4"); }, "output_weights", "int4");
  // The VNNI path needs the AVX-512 kernels and the CPU's VNNI.
  EXPECT_TRUE(!has_int8_dot_products() ||
              (kernel_isa() == KernelIsa::kAvx512 && cpu_features().avx512_vnni));
}

}  // namespace
}  // namespace attnscope
