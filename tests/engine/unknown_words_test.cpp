// Copying unknown words through attention (UnknownWords::kCopy): the pure rule on hand-built
// translations, then every decoding mode on a TorchScript toy whose "<unk>" outputs and
// attention are known.
#include <attnscope/text.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include "engine/scripted_modules.h"

namespace attnscope {
namespace {

// "Angela Merkel lacht" read as three tokens and the appended end token; the output says
// "<unk> <unk> lacht </s>".
Translation hand_built(const std::vector<std::vector<float>>& attention) {
  Translation t;
  t.source.tokens = {"angela", "merkel", "lacht", "</s>"};
  t.source.typed = {"Angela", "Merkel", "lacht", "</s>"};
  t.source.kept_length = 3;
  t.tokens = {"<unk>", "<unk>", "lacht", "</s>"};
  t.attention = attention;
  return t;
}

// Row 0 weighs "Merkel" most, row 1 "Angela".
const std::vector<std::vector<float>> kToMerkelThenAngela = {{0.1f, 0.7f, 0.1f, 0.1f},
                                                             {0.6f, 0.2f, 0.1f, 0.1f},
                                                             {0.0f, 0.0f, 1.0f, 0.0f},
                                                             {0.0f, 0.0f, 0.0f, 1.0f}};

TEST(CopyUnknownWords, TakesTheMostAttendedSourceWordAsTyped) {
  Translation t = hand_built(kToMerkelThenAngela);
  copy_unknown_words(t);
  EXPECT_EQ(t.tokens, (std::vector<std::string>{"Merkel", "Angela", "lacht", "</s>"}));
  ASSERT_EQ(t.copied.size(), 2u);
  EXPECT_EQ(t.copied[0].target, 0);
  EXPECT_EQ(t.copied[0].source, 1);
  EXPECT_FLOAT_EQ(t.copied[0].attention, 0.7f);
  EXPECT_EQ(t.copied[1].target, 1);
  EXPECT_EQ(t.copied[1].source, 0);
  EXPECT_EQ(t.text(), "Merkel Angela lacht");
}

TEST(CopyUnknownWords, ARowThatWeighsTheEndTokenMostCopiesTheRunnerUp) {
  std::vector<std::vector<float>> rows = kToMerkelThenAngela;
  rows[0] = {0.1f, 0.25f, 0.05f, 0.6f};  // weighs the end token most, "Merkel" next
  Translation t = hand_built(rows);
  copy_unknown_words(t);
  EXPECT_EQ(t.tokens, (std::vector<std::string>{"Merkel", "Angela", "lacht", "</s>"}));
  ASSERT_EQ(t.copied.size(), 2u);
  EXPECT_EQ(t.copied[0].source, 1);
  EXPECT_FLOAT_EQ(t.copied[0].attention, 0.25f);
  EXPECT_FLOAT_EQ(t.copied[0].end_attention, 0.6f);
  EXPECT_TRUE(t.copied[0].end_weighed_more());
  EXPECT_FALSE(t.copied[1].end_weighed_more());  // its row weighs "Angela" most
}

TEST(CopyUnknownWords, NeverCopiesTheEndTokenAndKeepsUnknownWhenTheSourceHasNoWord) {
  // The whole row on the end token: a word with no weight at all is still copied, not "</s>".
  std::vector<std::vector<float>> rows = kToMerkelThenAngela;
  rows[0] = {0.0f, 0.0f, 0.0f, 1.0f};
  Translation t = hand_built(rows);
  copy_unknown_words(t);
  EXPECT_EQ(t.tokens[0], "Angela");  // the first of equal weights
  ASSERT_FALSE(t.copied.empty());
  EXPECT_TRUE(t.copied[0].end_weighed_more());

  // An empty sentence is only its end token: nothing to copy, "<unk>" stays.
  Translation empty;
  empty.source.tokens = {"</s>"};
  empty.source.typed = {"</s>"};
  empty.source.kept_length = 0;
  empty.tokens = {"<unk>", "</s>"};
  empty.attention = {{1.0f}, {1.0f}};
  copy_unknown_words(empty);
  EXPECT_EQ(empty.tokens[0], "<unk>");
  EXPECT_TRUE(empty.copied.empty());
}

TEST(CopyUnknownWords, ASecondCallAndATranslationWithoutTypedSourceChangeNothing) {
  Translation t = hand_built(kToMerkelThenAngela);
  t.source.typed[0] = "<unk>";  // a typed word that reads like the unknown token
  copy_unknown_words(t);
  const Translation once = t;
  copy_unknown_words(t);
  EXPECT_EQ(t.tokens, once.tokens);
  EXPECT_EQ(t.copied.size(), once.copied.size());

  Translation from_a_file = hand_built(once.attention);
  from_a_file.source.typed.clear();  // e.g. read from an attention file: nothing to copy from
  copy_unknown_words(from_a_file);
  EXPECT_EQ(from_a_file.tokens[0], "<unk>");
  EXPECT_TRUE(from_a_file.copied.empty());
}

TEST(TokenizeKeepingCase, SplitsLikeTokenizeAndKeepsTheCase) {
  const std::string text = "Grüße aus MÜNCHEN, sagt O'Brien!";
  const auto typed = tokenize_keeping_case(text);
  const auto lower = tokenize(text);
  ASSERT_EQ(typed.size(), lower.size());
  for (size_t i = 0; i < typed.size(); ++i) EXPECT_EQ(to_lower(typed[i]), lower[i]);
  EXPECT_EQ(typed[0], "Grüße");
  EXPECT_EQ(typed[2], "MÜNCHEN");
}

// The toy copies its source token by token with attention peaked on the token it copies, so an
// unknown source word comes out as "<unk>" whose row points at that word.
class CopyingToy : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    testing::ScriptedModuleSpec spec;
    spec.tokenizer = "attnscope";
    translator_ = new Translator(testing::write_scripted_module(spec, "toy-copy.pt"));
  }
  static void TearDownTestSuite() { delete translator_; }
  static const Translator& translator() { return *translator_; }
  static inline const Translator* translator_ = nullptr;
};

const std::string kSentence = "a Zebra b Élan c";

TEST_F(CopyingToy, GreedyCopiesUnknownWordsAsTyped) {
  const Translation copied = translator().translate(kSentence);
  EXPECT_EQ(copied.tokens, (std::vector<std::string>{"a", "Zebra", "b", "Élan", "c", "</s>"}));
  ASSERT_EQ(copied.copied.size(), 2u);
  EXPECT_EQ(copied.copied[0].target, 1);
  EXPECT_EQ(copied.copied[0].source, 1);
  EXPECT_EQ(copied.copied[1].source, 3);
  EXPECT_GT(copied.copied[1].attention, 0.3f);

  TranslationOptions keep;
  keep.unknown_words = UnknownWords::kKeep;
  const Translation kept = translator().translate(kSentence, keep);
  EXPECT_EQ(kept.tokens[1], "<unk>");
  EXPECT_EQ(kept.tokens[3], "<unk>");
  EXPECT_TRUE(kept.copied.empty());
  EXPECT_EQ(kept.attention, copied.attention);
}

TEST_F(CopyingToy, BeamStepwiseAndForcedDecodingCopyAsGreedyDoes) {
  const Translation greedy = translator().translate(kSentence);
  ASSERT_FALSE(greedy.copied.empty());

  TranslationOptions beam;
  beam.beam_size = 4;
  const Translation best = translator().translate(kSentence, beam);
  EXPECT_EQ(best.tokens, greedy.tokens);
  EXPECT_EQ(best.copied.size(), greedy.copied.size());

  auto session = translator().start(kSentence, 3);
  while (!session->finished()) session->step();
  EXPECT_EQ(session->steps()[1].token, "<unk>");  // the step panel shows what the model emits
  const Translation stepwise = session->translation();
  EXPECT_EQ(stepwise.tokens, greedy.tokens);
  ASSERT_EQ(stepwise.copied.size(), greedy.copied.size());
  for (size_t i = 0; i < greedy.copied.size(); ++i) {
    EXPECT_EQ(stepwise.copied[i].target, greedy.copied[i].target);
    EXPECT_EQ(stepwise.copied[i].source, greedy.copied[i].source);
    EXPECT_FLOAT_EQ(stepwise.copied[i].attention, greedy.copied[i].attention);
  }
  auto keeping = translator().start(kSentence, 3, UnknownWords::kKeep);
  while (!keeping->finished()) keeping->step();
  EXPECT_TRUE(keeping->translation().copied.empty());

  // A reference word the model does not know is read as "<unk>" and copied the same way.
  const Translation forced = translator().force_decode(kSentence, "a unknown b other c");
  EXPECT_EQ(forced.tokens, greedy.tokens);
  EXPECT_EQ(translator().force_decode(kSentence, "a x b y c", UnknownWords::kKeep).tokens[1],
            "<unk>");
}

}  // namespace
}  // namespace attnscope
