// Beam search on a model whose next-token distributions are written out by hand, so a test can
// set up exactly the ranking a rule is about.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "decode/search.h"

namespace attnscope {
namespace {

constexpr int64_t kTableBos = 0, kTableEos = 1, kA = 2, kB = 3, kC = 4, kVocab = 5;

// Each row's state is the tokens it has emitted; a table maps a prefix to its next-token
// probabilities, and a prefix not in the table ends for sure (probability ~1 on </s>).
struct PrefixRows : DecoderRows {
  std::vector<std::vector<int64_t>> prefixes;
};

class TableStepModel : public StepModel {
 public:
  explicit TableStepModel(std::map<std::vector<int64_t>, std::map<int64_t, double>> table)
      : table_(std::move(table)) {}

  std::shared_ptr<const DecoderRows> encode(
      const std::vector<std::vector<int64_t>>& sources) override {
    auto rows = std::make_shared<PrefixRows>();
    rows->prefixes.resize(sources.size());
    return rows;
  }
  StepOutput step(const DecoderRows& rows, const torch::Tensor& previous) override {
    const auto& prefixes = dynamic_cast<const PrefixRows&>(rows).prefixes;
    auto next = std::make_shared<PrefixRows>();
    torch::Tensor probabilities =
        torch::full({static_cast<int64_t>(prefixes.size()), kVocab}, 1e-6);
    for (size_t r = 0; r < prefixes.size(); ++r) {
      std::vector<int64_t> prefix = prefixes[r];
      if (previous[static_cast<int64_t>(r)].item<int64_t>() != kTableBos)
        prefix.push_back(previous[static_cast<int64_t>(r)].item<int64_t>());
      const auto found = table_.find(prefix);
      if (found == table_.end()) {
        probabilities[static_cast<int64_t>(r)][kTableEos] = 1.0;
      } else {
        for (const auto& [token, p] : found->second)
          probabilities[static_cast<int64_t>(r)][token] = p;
      }
      next->prefixes.push_back(prefix);
    }
    StepOutput out;
    out.log_probs = (probabilities / probabilities.sum(1, true)).log().to(torch::kFloat);
    out.next = next;
    return out;
  }
  std::shared_ptr<const DecoderRows> select(const DecoderRows& rows,
                                            const std::vector<int64_t>& which) override {
    const auto& prefixes = dynamic_cast<const PrefixRows&>(rows).prefixes;
    auto selected = std::make_shared<PrefixRows>();
    for (int64_t i : which) selected->prefixes.push_back(prefixes[static_cast<size_t>(i)]);
    return selected;
  }
  int64_t bos() const override { return kTableBos; }
  int64_t eos() const override { return kTableEos; }
  bool has_attention() const override { return false; }

 private:
  std::map<std::vector<int64_t>, std::map<int64_t, double>> table_;
};

// With K = 2, step 2's candidates rank: "a c" (live), "a </s>" (ends), "b </s>" (ends, third),
// "b a" (live). "b </s>" lies outside the step's top 2; counted as finished it would stop the
// search with "a </s>" (log P / length -0.81) before "a c </s>" (-0.43) could end.
TableStepModel outranked_ending_model() {
  return TableStepModel({
      {{}, {{kA, 0.5}, {kB, 0.3}, {kTableEos, 0.15}, {kC, 0.05}}},
      {{kA}, {{kC, 0.55}, {kTableEos, 0.4}, {kB, 0.05}}},
      {{kB}, {{kTableEos, 0.5}, {kA, 0.25}, {kC, 0.25}}},
  });
}

TEST(BeamSearch, AnEndingOutsideTheStepsTopKDoesNotStopTheSearch) {
  TableStepModel model = outranked_ending_model();
  const std::vector<Hypothesis> beam = beam_search(model, {7}, 2, 1.0f, 10);
  ASSERT_FALSE(beam.empty());
  EXPECT_EQ(beam.front().tokens, (std::vector<int64_t>{kA, kC, kTableEos}));
  EXPECT_NEAR(beam.front().score, std::log(0.5 * 0.55) / 3.0, 1e-3);
  for (const Hypothesis& h : beam)  // "b </s>" was never accepted
    EXPECT_NE(h.tokens, (std::vector<int64_t>{kB, kTableEos}));
}

TEST(BeamSearch, TheOldRuleAcceptsTheOutrankedEnding) {
  TableStepModel model = outranked_ending_model();
  BeamSettings settings;
  settings.beam_size = 2;
  settings.max_length = 10;
  settings.any_ending = true;
  const std::vector<Hypothesis> beam = beam_search(model, {7}, settings);
  ASSERT_EQ(beam.size(), 2u);
  EXPECT_EQ(beam.front().tokens, (std::vector<int64_t>{kA, kTableEos}));
  EXPECT_EQ(beam.back().tokens, (std::vector<int64_t>{kB, kTableEos}));
}

TEST(BeamSearch, AnEndingAmongTheTopKStillFinishes) {
  // "</s>" first at step 1: a hypothesis of one token, accepted even though "a" lives on.
  TableStepModel model({{{}, {{kTableEos, 0.6}, {kA, 0.4}}}, {{kA}, {{kB, 0.5}, {kC, 0.5}}}});
  const std::vector<Hypothesis> beam = beam_search(model, {7}, 2, 1.0f, 10);
  ASSERT_EQ(beam.size(), 2u);
  EXPECT_EQ(beam.front().tokens, (std::vector<int64_t>{kTableEos}));
}

}  // namespace
}  // namespace attnscope
