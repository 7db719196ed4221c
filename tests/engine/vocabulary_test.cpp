#include <attnscope/vocabulary.h>
#include <gtest/gtest.h>

namespace attnscope {
namespace {

TEST(Vocabulary, SpecialTokensComeFirst) {
  const Vocabulary v;
  ASSERT_EQ(v.size(), 4);
  EXPECT_EQ(v.token(Vocabulary::kPad), "<pad>");
  EXPECT_EQ(v.token(Vocabulary::kUnk), "<unk>");
  EXPECT_EQ(v.token(Vocabulary::kBos), "<s>");
  EXPECT_EQ(v.token(Vocabulary::kEos), "</s>");
}

TEST(Vocabulary, KeepsFrequentWordsByFallingCountThenAlphabetically) {
  const Vocabulary v = Vocabulary::build({{"b", "a", "c"}, {"b", "a"}, {"b", "d"}}, 2);
  EXPECT_EQ(v.tokens(), (std::vector<std::string>{"<pad>", "<unk>", "<s>", "</s>", "b", "a"}));
  EXPECT_EQ(v.id("b"), 4);
  EXPECT_EQ(v.id("c"), Vocabulary::kUnk);
  EXPECT_FALSE(v.contains("c"));
}

TEST(Vocabulary, RejectsListsWithoutSpecialsOrWithDuplicates) {
  EXPECT_THROW(Vocabulary::from_tokens({"a", "b"}), std::invalid_argument);
  EXPECT_THROW(Vocabulary::from_tokens({"<pad>", "<unk>", "<s>", "</s>", "x", "x"}),
               std::invalid_argument);
  EXPECT_THROW(Vocabulary().token(99), std::invalid_argument);
}

}  // namespace
}  // namespace attnscope
