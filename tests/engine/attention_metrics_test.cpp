// The corpus measures of attention on matrices whose values are known by hand.
#include <attnscope/attention_metrics.h>
#include <gtest/gtest.h>

#include <cmath>

namespace attnscope {
namespace {

using Matrix = std::vector<std::vector<float>>;

Matrix one_hot_diagonal(size_t n) {
  Matrix m(n, std::vector<float>(n, 0.0f));
  for (size_t i = 0; i < n; ++i) m[i][i] = 1.0f;
  return m;
}

TEST(AttentionMetrics, AOneHotDiagonalHasNoEntropyNoSinkAndFullCoverage) {
  AttentionMetrics m;
  m.add(one_hot_diagonal(5), 4);
  EXPECT_EQ(m.steps, 5u);
  EXPECT_DOUBLE_EQ(m.mean_entropy(), 0.0);
  EXPECT_DOUBLE_EQ(m.mean_diagonality(), 0.0);
  EXPECT_DOUBLE_EQ(m.mean_end_sink(), 0.0);  // "</s>" is attended only at the last step
  EXPECT_DOUBLE_EQ(m.mean_coverage_spread(), 0.0);
}

TEST(AttentionMetrics, AllWeightOnTheEndTokenIsAFullSink) {
  // Four steps over "a b c </s>", every row on "</s>".
  const Matrix m(4, std::vector<float>{0, 0, 0, 1});
  AttentionMetrics metrics;
  metrics.add(m, 3);
  EXPECT_DOUBLE_EQ(metrics.mean_end_sink(), 1.0);
  EXPECT_EQ(metrics.sink_steps, 3u);
  EXPECT_DOUBLE_EQ(metrics.mean_entropy(), 0.0);
  // Peaks at 3/4 for steps 0, 1/4, 2/4, 3/4: |3/4 − t/4| = 3/4, 2/4, 1/4, 0.
  EXPECT_DOUBLE_EQ(metrics.mean_diagonality(), (0.75 + 0.5 + 0.25 + 0.0) / 4);
  // a, b, c receive 0 (1 off each), "</s>" receives 4 (3 off).
  EXPECT_DOUBLE_EQ(metrics.mean_coverage_spread(), (1 + 1 + 1 + 3) / 4.0);
}

TEST(AttentionMetrics, UniformRowsHaveTheEntropyOfTheirLength) {
  AttentionMetrics m;
  m.add(Matrix(3, std::vector<float>(8, 0.125f)), -1);
  EXPECT_NEAR(m.mean_entropy(), std::log(8.0), 1e-6);
  EXPECT_EQ(m.sink_steps, 0u);  // no end token: no sink measured
  EXPECT_DOUBLE_EQ(m.mean_end_sink(), 0.0);
}

TEST(AttentionMetrics, ACorpusPoolsStepsAndTokensAcrossMatrices) {
  AttentionMetrics uniform, diagonal, both;
  uniform.add(Matrix(2, std::vector<float>(4, 0.25f)), 3);  // log 4 per step, 2 steps
  diagonal.add(one_hot_diagonal(6), 5);                     // 0 bits, 6 steps
  both.add(uniform);
  both.add(diagonal);
  EXPECT_EQ(both.steps, 8u);
  EXPECT_NEAR(both.mean_entropy(), std::log(4.0) * 2 / 8, 1e-6);  // by step, not by sentence
  EXPECT_NEAR(both.mean_end_sink(), 0.25 / 6, 1e-9);              // 1 of 6 sink steps holds 0.25
  AttentionMetrics again;
  again.add(Matrix(2, std::vector<float>(4, 0.25f)), 3);
  again.add(one_hot_diagonal(6), 5);
  EXPECT_DOUBLE_EQ(again.mean_entropy(), both.mean_entropy());
  EXPECT_DOUBLE_EQ(again.mean_coverage_spread(), both.mean_coverage_spread());
}

TEST(AttentionMetrics, EmptyAndBadMatrices) {
  AttentionMetrics m;
  m.add({}, -1);
  EXPECT_EQ(m.steps, 0u);
  EXPECT_DOUBLE_EQ(m.mean_entropy(), 0.0);  // no steps: 0, not NaN
  EXPECT_THROW(m.add({{0.5f, 0.5f}, {1.0f}}, -1), std::invalid_argument);
  EXPECT_THROW(m.add({{0.5f, 0.5f}}, 2), std::invalid_argument);
  EXPECT_EQ(m.steps, 0u);  // a refused matrix adds nothing
}

TEST(LengthBuckets, TenWordsPerBucketThenEverythingLonger) {
  ASSERT_EQ(length_buckets().size(), 4u);
  EXPECT_EQ(length_buckets()[0].label(), "1\u201310");
  EXPECT_EQ(length_buckets()[3].label(), "31+");
  EXPECT_EQ(length_bucket_of(0), 0u);
  EXPECT_EQ(length_bucket_of(1), 0u);
  EXPECT_EQ(length_bucket_of(10), 0u);
  EXPECT_EQ(length_bucket_of(11), 1u);
  EXPECT_EQ(length_bucket_of(20), 1u);
  EXPECT_EQ(length_bucket_of(21), 2u);
  EXPECT_EQ(length_bucket_of(30), 2u);
  EXPECT_EQ(length_bucket_of(31), 3u);
  EXPECT_EQ(length_bucket_of(5000), 3u);
}

}  // namespace
}  // namespace attnscope
