#pragma once
// Checks that hold for every Translation, whatever model or decoding path made it.
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <numeric>

namespace attnscope::testing {

/// One attention row per output token, one column per source token, each row summing to 1.
inline void expect_attention_contract(const Translation& t) {
  ASSERT_EQ(t.attention.size(), t.tokens.size());
  for (const auto& row : t.attention) {
    ASSERT_EQ(row.size(), t.source.tokens.size());
    EXPECT_NEAR(std::accumulate(row.begin(), row.end(), 0.0), 1.0, 1e-5);
  }
}

}  // namespace attnscope::testing
