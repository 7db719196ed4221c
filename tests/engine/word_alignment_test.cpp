// Alignments from attention, Pharaoh links in and out, and precision, recall and AER against a
// gold alignment with sure and possible links, computed by hand.
#include <attnscope/word_alignment.h>
#include <gtest/gtest.h>

#include <functional>

namespace attnscope {
namespace {

#define EXPECT_CONTAINS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(WordAlignment, ArgmaxLinksEveryTargetWordToItsPeak) {
  // Target rows over three source words.
  const std::vector<std::vector<float>> weights = {
      {0.1f, 0.7f, 0.2f}, {0.6f, 0.3f, 0.1f}, {0.2f, 0.4f, 0.4f}};
  const auto links = alignment_from_attention(weights, parse_alignment_method("argmax"));
  // Sorted by source: 0-1, 1-0, 1-2 (a tie goes to the first).
  EXPECT_EQ(pharaoh_text(links), "0-1 1-0 1-2");
  // A row with no weight on any word links nothing.
  EXPECT_EQ(pharaoh_text(alignment_from_attention({{0, 0}, {0.2f, 0.1f}}, AlignmentMethod{})),
            "0-1");
}

TEST(WordAlignment, AThresholdLinksEveryCellAtOrAboveIt) {
  const std::vector<std::vector<float>> weights = {{0.5f, 0.5f, 0.0f}, {0.1f, 0.2f, 0.7f}};
  EXPECT_EQ(
      pharaoh_text(alignment_from_attention(weights, parse_alignment_method("threshold:0.5"))),
      "0-0 1-0 2-1");
  EXPECT_EQ(
      pharaoh_text(alignment_from_attention(weights, parse_alignment_method("threshold:0.8"))), "");
}

TEST(WordAlignment, MethodsAreCheckedWithTheTextInTheMessage) {
  EXPECT_EQ(parse_alignment_method("threshold:1").threshold, 1.0f);
  EXPECT_FLOAT_EQ(parse_alignment_method("threshold:0.25").threshold, 0.25f);
  for (const char* bad :
       {"", "max", "threshold:", "threshold:0", "threshold:1.5", "threshold:-0.5", "threshold:nan",
        "threshold:1e-3", "threshold:0.5x", "threshold:0,5", "argmax "}) {
    SCOPED_TRACE(bad);
    EXPECT_CONTAINS(error_of([&] { parse_alignment_method(bad); }),
                    "alignment method '" + std::string(bad) + "'");
  }
}

TEST(WordAlignment, PharaohLinksKeepSureAndPossibleAndCheckTheirRange) {
  const SentencePairSizes pair{"src.txt", 3, "tgt.txt", 2};
  const auto links = parse_pharaoh_links("0-0 2?1 1p1 2-1 2?1", "gold.txt", 4, pair, false);
  ASSERT_EQ(links.size(), 3u);
  EXPECT_EQ(links[0], (AlignmentLink{0, 0, true}));
  EXPECT_EQ(links[1], (AlignmentLink{2, 1, true}));  // sure and possible: sure
  EXPECT_EQ(links[2], (AlignmentLink{1, 1, false}));
  EXPECT_EQ(parse_pharaoh_links("1-1 3?2", "gold.txt", 4, pair, true),
            (std::vector<AlignmentLink>{{0, 0, true}, {2, 1, false}}));
  EXPECT_EQ(pharaoh_text({{0, 0, true}, {2, 1, false}}), "0-0 2?1");
  const std::string range =
      error_of([&] { parse_pharaoh_links("3-0", "gold.txt", 4, pair, false); });
  EXPECT_CONTAINS(range, "'gold.txt' line 4: source index 3");
  EXPECT_CONTAINS(range, "'src.txt' line 4 has 3 tokens");
  EXPECT_CONTAINS(error_of([&] { parse_pharaoh_links("0-0 1x1", "gold.txt", 4, pair, false); }),
                  "'gold.txt' line 4: '1x1' is not a link");
  EXPECT_CONTAINS(error_of([&] { parse_pharaoh_links("0-0", "gold.txt", 4, pair, true); }),
                  "out of range");
}

TEST(AlignmentScore, MatchesOchAndNeyByHand) {
  // Gold: sure 0-0, 1-1; possible 2?1, 2?2. P = {0-0, 1-1, 2-1, 2-2}, S = {0-0, 1-1}.
  const std::vector<AlignmentLink> gold = {
      {0, 0, true}, {1, 1, true}, {2, 1, false}, {2, 2, false}};
  // Predicted: 0-0 (sure hit), 2-1 (possible hit), 1-2 (miss).
  const std::vector<AlignmentLink> predicted = {{0, 0, true}, {2, 1, true}, {1, 2, true}};
  AlignmentScore score;
  score.add(predicted, gold);
  EXPECT_EQ(score.predicted, 3u);
  EXPECT_EQ(score.sure, 2u);
  EXPECT_EQ(score.sure_matches, 1u);
  EXPECT_EQ(score.possible_matches, 2u);
  EXPECT_DOUBLE_EQ(score.precision(), 2.0 / 3);
  EXPECT_DOUBLE_EQ(score.recall(), 1.0 / 2);
  EXPECT_DOUBLE_EQ(score.aer(), 1.0 - (1.0 + 2.0) / (3 + 2));
  // A perfect prediction of the sure links: AER 0 even though possible links were left out.
  AlignmentScore perfect;
  perfect.add({{0, 0, true}, {1, 1, true}}, gold);
  EXPECT_DOUBLE_EQ(perfect.aer(), 0.0);
  // A corpus sums counts: adding the second pair changes the scores as the sums say.
  score.add({{0, 0, true}, {1, 1, true}}, gold);
  EXPECT_DOUBLE_EQ(score.aer(), 1.0 - (3.0 + 4.0) / (5 + 4));
}

TEST(AlignmentScore, EmptySidesGiveZeroNotNaN) {
  AlignmentScore score;
  EXPECT_DOUBLE_EQ(score.aer(), 0.0);
  EXPECT_DOUBLE_EQ(score.precision(), 0.0);
  score.add({}, {{0, 0, true}});
  EXPECT_DOUBLE_EQ(score.recall(), 0.0);
  EXPECT_DOUBLE_EQ(score.aer(), 1.0);
}

}  // namespace
}  // namespace attnscope
