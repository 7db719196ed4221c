// The bfloat16 conversions of mixed-precision training (bfloat16_conversion.h): the same bits
// as torch's own conversions on every kernel path, scaled, strided and with row tails.
#include "ops/bfloat16_conversion.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnscope {
namespace {

constexpr KernelIsa kPaths[] = {KernelIsa::kPortable, KernelIsa::kAvx2, KernelIsa::kAvx512};

// 37 columns (two 16-lane blocks and a tail of 5) of values that test the rounding: random
// magnitudes, exact ties between two bfloat16 values (both parities), infinities, NaN, ±0,
// subnormals and the largest floats (which round to infinity).
torch::Tensor awkward_values(int64_t rows) {
  torch::manual_seed(21);
  torch::Tensor values =
      torch::randn({rows, 37}) * torch::pow(10.0, torch::randint(-30, 30, {rows, 37}));
  float* v = values.data_ptr<float>();
  const float specials[] = {std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            0.0f,
                            -0.0f,
                            std::numeric_limits<float>::denorm_min(),
                            -1e-39f,
                            std::numeric_limits<float>::max(),
                            1.0f + 1.0f / 256,  // a tie: rounds down to the even 1.0
                            1.0f + 3.0f / 256,  // a tie: rounds up to the even 1 + 4/256
                            -3.0f - 1.0f / 64};
  for (size_t i = 0; i < std::size(specials); ++i) v[i * 3] = specials[i];
  return values;
}

// Whether two bfloat16 matrices hold the same bits, NaN aside: torch's own conversions give a
// NaN different bits (0x7FC0 one element at a time, 0xFFFF in its vector loop), so NaNs need
// only be NaNs in the same places.
bool same_bits(const torch::Tensor& a, const torch::Tensor& b) {
  const torch::Tensor nan = a.isnan();
  return torch::equal(nan, b.isnan()) && torch::equal(a.view(torch::kShort).masked_fill(nan, 0),
                                                      b.view(torch::kShort).masked_fill(nan, 0));
}

TEST(Bfloat16Conversion, RoundsAsTorchDoesOnEveryPath) {
  const torch::Tensor values = awkward_values(9);
  for (const float scale : {1.0f, 0.37f}) {
    const torch::Tensor expected = (values * scale).to(torch::kBFloat16);
    for (const KernelIsa isa : kPaths) {
      torch::Tensor out = torch::empty(values.sizes(), torch::kBFloat16);
      round_to_bfloat16(values.data_ptr<float>(), values.stride(0), values.size(0), values.size(1),
                        scale, reinterpret_cast<uint16_t*>(out.data_ptr()), isa);
      EXPECT_TRUE(same_bits(out, expected)) << kernel_isa_name(isa) << " scale " << scale;
    }
  }
}

TEST(Bfloat16Conversion, ReadsRowsOfAWiderMatrix) {
  const torch::Tensor wide = awkward_values(6);
  const torch::Tensor block = wide.narrow(1, 3, 20);  // row stride 37, 20 columns
  const torch::Tensor expected = block.to(torch::kBFloat16);
  for (const KernelIsa isa : kPaths) {
    torch::Tensor out = torch::empty({6, 20}, torch::kBFloat16);
    round_to_bfloat16(block.data_ptr<float>(), block.stride(0), 6, 20, 1.0f,
                      reinterpret_cast<uint16_t*>(out.data_ptr()), isa);
    EXPECT_TRUE(same_bits(out, expected)) << kernel_isa_name(isa);
  }
}

TEST(Bfloat16Conversion, WidensAsTorchDoesIntoColumnBlocks) {
  const torch::Tensor rounded = awkward_values(7).to(torch::kBFloat16);
  for (const float scale : {1.0f, -2.5f}) {
    const torch::Tensor expected = rounded.to(torch::kFloat) * scale;
    for (const KernelIsa isa : kPaths) {
      // Into columns 4..40 of a 7 × 50 matrix whose other columns must stay as they were.
      torch::Tensor target = torch::full({7, 50}, 9.0f);
      torch::Tensor block = target.narrow(1, 4, 37);
      widen_from_bfloat16(reinterpret_cast<const uint16_t*>(rounded.data_ptr()), 7, 37, scale,
                          block.data_ptr<float>(), block.stride(0), isa);
      // NaN ≠ NaN: compare with NaNs in the same places, then the rest.
      EXPECT_TRUE(torch::equal(block.isnan(), expected.isnan())) << kernel_isa_name(isa);
      EXPECT_TRUE(torch::equal(block.nan_to_num(0.0, INFINITY, -INFINITY),
                               expected.nan_to_num(0.0, INFINITY, -INFINITY)))
          << kernel_isa_name(isa) << " scale " << scale;
      EXPECT_TRUE(torch::equal(target.narrow(1, 0, 4), torch::full({7, 4}, 9.0f)));
      EXPECT_TRUE(torch::equal(target.narrow(1, 41, 9), torch::full({7, 9}, 9.0f)));
    }
  }
}

// No rows or no columns: the buffers beside are not read or written (a kernel that wrote a
// vector's width regardless would change the sentinels), on every path.
TEST(Bfloat16Conversion, EmptyMatricesTouchNothing) {
  for (const KernelIsa isa : {KernelIsa::kPortable, KernelIsa::kAvx2, KernelIsa::kAvx512}) {
    std::vector<float> floats(64, 7.0f);
    std::vector<uint16_t> halves(64, 0x1234);
    round_to_bfloat16(floats.data(), 16, 0, 5, 1.0f, halves.data(), isa);
    round_to_bfloat16(floats.data(), 16, 3, 0, 1.0f, halves.data(), isa);
    widen_from_bfloat16(halves.data(), 3, 0, 1.0f, floats.data(), 16, isa);
    widen_from_bfloat16(halves.data(), 0, 16, 1.0f, floats.data(), 16, isa);
    EXPECT_EQ(std::count(floats.begin(), floats.end(), 7.0f), 64) << kernel_isa_name(isa);
    EXPECT_EQ(std::count(halves.begin(), halves.end(), uint16_t{0x1234}), 64)
        << kernel_isa_name(isa);
  }
}

}  // namespace
}  // namespace attnscope
