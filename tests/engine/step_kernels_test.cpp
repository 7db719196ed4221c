// The batch-1 step's plain-array loops (step_kernels.h) and the VNNI product of the context
// columns (int8_panel_matrix.h) against the torch arithmetic they replace.
#include "ops/step_kernels.h"

#include <gtest/gtest.h>

#include "attnscope/cpu_dispatch.h"
#include "ops/gru_math.h"
#include "ops/int8_panel_matrix.h"

namespace attnscope {
namespace {

const float* floats_of(const torch::Tensor& t) { return t.data_ptr<float>(); }

TEST(StepKernels, GruUpdateIsTorchsGru) {
  torch::manual_seed(3);
  const int64_t H = 37;
  // Gates large enough to saturate some sigmoids (z near 0 and 1: both forms of the lerp).
  const torch::Tensor input = torch::randn({3 * H}) * 4, hidden = torch::randn({3 * H}) * 4;
  const torch::Tensor h = torch::randn({H});
  const torch::Tensor expected = gru_vector_update(input, hidden, h);
  torch::Tensor out = torch::empty({H});
  step_kernels::gru_update(floats_of(input), floats_of(hidden), floats_of(h), out.data_ptr<float>(),
                           H);
  EXPECT_TRUE(torch::allclose(out, expected, 1e-6, 1e-6));
  // In place over h, as the encoder's loop may use it.
  torch::Tensor state = h.clone();
  step_kernels::gru_update(floats_of(input), floats_of(hidden), floats_of(state),
                           state.data_ptr<float>(), H);
  EXPECT_TRUE(torch::equal(state, out));
}

TEST(StepKernels, WeightedRowsAndTanhAreTheirTorchOperations) {
  torch::manual_seed(4);
  const torch::Tensor weights = torch::rand({5}), rows = torch::randn({5, 19});
  torch::Tensor out = torch::ones({19});
  step_kernels::add_weighted_rows(floats_of(weights), floats_of(rows), 5, 19,
                                  out.data_ptr<float>());
  EXPECT_TRUE(torch::allclose(out, 1 + torch::mv(rows.t(), weights), 1e-6, 1e-6));
  EXPECT_NEAR(step_kernels::dot(floats_of(rows[1]), floats_of(rows[2]), 19),
              torch::dot(rows[1], rows[2]).item<float>(), 1e-5);
  torch::Tensor values = torch::randn({23}) * 3;
  const torch::Tensor expected = torch::tanh(values);
  step_kernels::tanh_in_place(values.data_ptr<float>(), 23);
  EXPECT_TRUE(torch::allclose(values, expected, 1e-6, 1e-6));
}

TEST(StepKernels, LargestAreTopkInOrder) {
  torch::manual_seed(5);
  const torch::Tensor values = torch::randn({1000});
  int64_t indices[step_kernels::kMaxLargest];
  ASSERT_EQ(step_kernels::largest(floats_of(values), 1000, 8, indices), 8);
  const torch::Tensor expected = std::get<1>(values.topk(8));
  for (int64_t i = 0; i < 8; ++i) EXPECT_EQ(indices[i], expected[i].item<int64_t>()) << i;
  // Fewer values than asked for: all of them, largest first.
  const float few[3] = {1.0f, 3.0f, 2.0f};
  ASSERT_EQ(step_kernels::largest(few, 3, 8, indices), 3);
  EXPECT_EQ(indices[0], 1);
  EXPECT_EQ(indices[1], 2);
  EXPECT_EQ(indices[2], 0);
}

TEST(StepKernels, MatrixVectorTakesAStridedFloatWeightOrItsHalfCopy) {
  torch::manual_seed(6);
  // A column slice, as the one-GRU decoder's embedding columns of weight_ih.
  const torch::Tensor full = torch::randn({48, 40}).to(torch::kHalf).to(torch::kFloat);
  const torch::Tensor weight = full.narrow(1, 8, 24);
  const torch::Tensor x = torch::randn({24}), bias = torch::randn({48});
  const torch::Tensor expected = torch::addmv(bias, weight, x);
  torch::Tensor y = torch::empty({48});
  step_kernels::matrix_vector(nullptr, weight, floats_of(x), floats_of(bias), y.data_ptr<float>());
  EXPECT_TRUE(torch::allclose(y, expected, 1e-5, 1e-5));
  const auto half = std::make_shared<HalfMatrix>(weight.contiguous());
  step_kernels::matrix_vector(half, weight, floats_of(x), floats_of(bias), y.data_ptr<float>());
  EXPECT_TRUE(torch::allclose(y, expected, 1e-5, 1e-5));
}

TEST(Int8PanelMatrix, VnniKernelIsThePortableArithmeticAndNearTheFloatProduct) {
  torch::manual_seed(7);
  // 301 rows (not a multiple of the 32-row blocks), 77 columns (not of 4), rows of different
  // magnitudes and an all-zero row; 1 to 13 input vectors (every pass size and a remainder).
  torch::Tensor weight = torch::randn({301, 77}) * torch::logspace(-2, 1, 301).unsqueeze(1);
  weight[5].zero_();
  const Int8PanelMatrix matrix(weight);
  for (int64_t n : {1, 6, 7, 13}) {
    torch::Tensor x = torch::randn({n, 77});
    x[0].zero_();  // an all-zero input vector
    const torch::Tensor portable = matrix.portable_multiply(x);
    ASSERT_EQ(portable.sizes(), (std::vector<int64_t>{n, 301}));
    if (Int8PanelMatrix::available()) EXPECT_TRUE(torch::equal(matrix.multiply(x), portable)) << n;
    const torch::Tensor exact = torch::mm(x, weight.t());
    // Both roundings together: within 2% of each output vector's largest magnitude.
    const torch::Tensor error = (portable - exact).abs().amax(1);
    EXPECT_TRUE(error.le(0.02 * exact.abs().amax(1) + 1e-6).all().item<bool>()) << n;
    if (n > 1) EXPECT_FALSE(torch::equal(portable, exact)) << n;  // it does round
    EXPECT_TRUE(portable[0].eq(0).all().item<bool>());
  }
  const torch::Tensor x = torch::randn({77});
  EXPECT_NEAR(matrix.exact_dot(42, floats_of(x)), torch::dot(weight[42], x).item<float>(), 1e-4);
  EXPECT_EQ(Int8PanelMatrix::available(), has_int8_dot_products());
}

}  // namespace
}  // namespace attnscope
