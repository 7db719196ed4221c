// Copying unknown words through attention (UnknownWords::kCopy): the pure rule on hand-built
// translations, then every decoding mode on a TorchScript toy whose "<unk>" outputs and
// attention are known.
#include <attnscope/beam_tree_json.h>
#include <attnscope/text.h>
#include <attnscope/trainer.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/scripted_modules.h"

namespace attnscope {
namespace {

// "Angela Merkel lacht" read as three tokens and the appended end token, the names unknown to
// the source vocabulary; the output says "<unk> <unk> lacht </s>".
Translation hand_built(const std::vector<std::vector<float>>& attention) {
  Translation t;
  t.source.tokens = {"angela", "merkel", "lacht", "</s>"};
  t.source.typed = {"Angela", "Merkel", "lacht", "</s>"};
  t.source.unknown = {true, true, false, false};
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

TEST(CopyUnknownWords, TakesTheMostAttendedUnknownNameAsTyped) {
  Translation t = hand_built(kToMerkelThenAngela);
  copy_unknown_words(t);
  EXPECT_EQ(t.tokens, (std::vector<std::string>{"Merkel", "Angela", "lacht", "</s>"}));
  ASSERT_EQ(t.copied.size(), 2u);
  EXPECT_EQ(t.copied[0].target, 0);
  EXPECT_EQ(t.copied[0].source, 1);
  EXPECT_FLOAT_EQ(t.copied[0].attention, 0.7f);
  EXPECT_EQ(t.copied[0].peak, 1);  // the row peaks on the copied word itself
  EXPECT_EQ(t.copied[1].target, 1);
  EXPECT_EQ(t.copied[1].source, 0);
  EXPECT_TRUE(t.kept_unknown.empty());
  EXPECT_EQ(t.text(), "Merkel Angela lacht");
}

TEST(CopyUnknownWords, NeverCopiesAKnownWordOrTheEndTokenWhateverTheRowWeighsMost) {
  std::vector<std::vector<float>> rows = kToMerkelThenAngela;
  rows[0] = {0.06f, 0.1f, 0.24f, 0.6f};  // the end token most, then the known "lacht"
  Translation t = hand_built(rows);
  copy_unknown_words(t);
  EXPECT_EQ(t.tokens[0], "Merkel");
  ASSERT_EQ(t.copied.size(), 2u);
  EXPECT_FLOAT_EQ(t.copied[0].attention, 0.1f);
  EXPECT_EQ(t.copied[0].peak, 3);  // what the note names: the row weighed that more
  EXPECT_FLOAT_EQ(t.copied[0].peak_attention, 0.6f);
}

TEST(CopyUnknownWords, KeepsUnknownWhenEverySourceWordIsKnown) {
  Translation t = hand_built(kToMerkelThenAngela);
  t.source.unknown = {false, false, false, false};  // the model knows both names
  copy_unknown_words(t);
  EXPECT_EQ(t.tokens[0], "<unk>");
  EXPECT_EQ(t.tokens[1], "<unk>");
  EXPECT_TRUE(t.copied.empty());
  ASSERT_EQ(t.kept_unknown.size(), 2u);
  EXPECT_EQ(t.kept_unknown[0].target, 0);
  EXPECT_EQ(t.kept_unknown[0].reason, KeptUnknown::Reason::kNoUnknownWord);
  EXPECT_EQ(t.kept_unknown[0].source, -1);
}

TEST(CopyUnknownWords, ALowercaseUnknownWordIsEnglishAndNeverCopied) {
  // "angela" typed in lowercase is a common word to the rule, however much the row weighs it.
  Translation t = hand_built(kToMerkelThenAngela);
  t.source.typed = {"angela", "merkel", "lacht", "</s>"};
  copy_unknown_words(t);
  EXPECT_EQ(t.tokens[0], "<unk>");
  EXPECT_EQ(t.tokens[1], "<unk>");
  ASSERT_EQ(t.kept_unknown.size(), 2u);
  EXPECT_EQ(t.kept_unknown[1].reason, KeptUnknown::Reason::kOnlyCommonWords);
  EXPECT_EQ(t.kept_unknown[1].source, 0);  // the one the row weighs most, for the note
  EXPECT_FLOAT_EQ(t.kept_unknown[1].attention, 0.6f);

  // Beside a name, the row's own choice decides: a name it weighs less is not copied in place of
  // the common word ("Angela wears a bluish jacket" must not become "Angela ... Angela jacke").
  Translation mixed = hand_built(kToMerkelThenAngela);
  mixed.source.typed = {"angela", "Merkel", "lacht", "</s>"};
  copy_unknown_words(mixed);
  EXPECT_EQ(mixed.tokens[0], "Merkel");  // row 0: 0.7 on "Merkel"
  EXPECT_EQ(mixed.tokens[1], "<unk>");   // row 1: 0.6 on "angela", 0.2 on "Merkel"
  ASSERT_EQ(mixed.kept_unknown.size(), 1u);
  EXPECT_EQ(mixed.kept_unknown[0].reason, KeptUnknown::Reason::kOnlyCommonWords);
}

TEST(CopyUnknownWords, ANameTheRowBarelyLooksAtIsNotCopied) {
  std::vector<std::vector<float>> rows = kToMerkelThenAngela;
  rows[0] = {0.01f, 0.03f, 0.9f, 0.06f};  // both names below the default threshold
  Translation t = hand_built(rows);
  copy_unknown_words(t);
  EXPECT_EQ(t.tokens[0], "<unk>");
  ASSERT_EQ(t.kept_unknown.size(), 1u);
  EXPECT_EQ(t.kept_unknown[0].reason, KeptUnknown::Reason::kTooLittleAttention);
  EXPECT_EQ(t.kept_unknown[0].source, 1);
  EXPECT_FLOAT_EQ(t.kept_unknown[0].threshold, kMinCopyAttention);
  EXPECT_EQ(t.tokens[1], "Angela");  // row 1 is well above it

  Translation any = hand_built(rows);
  copy_unknown_words(any,
                     CopyRule{0.0f, false});  // no threshold: the name weighed most, however little
  EXPECT_EQ(any.tokens[0], "Merkel");
  EXPECT_TRUE(any.kept_unknown.empty());
}

TEST(CopyUnknownWords, TheRuleOfZeroNineZeroCopiesTheMostAttendedWordKnownOrNot) {
  std::vector<std::vector<float>> rows = kToMerkelThenAngela;
  rows[0] = {0.05f, 0.1f, 0.25f, 0.6f};  // the end token most, then the known "lacht"
  Translation t = hand_built(rows);
  t.source.typed[1] = "merkel";  // lowercase: the names-only rule would not copy it
  copy_unknown_words(t, CopyRule{kMinCopyAttention, true});
  EXPECT_EQ(t.tokens, (std::vector<std::string>{"lacht", "Angela", "lacht", "</s>"}));
  ASSERT_EQ(t.copied.size(), 2u);
  EXPECT_EQ(t.copied[0].source, 2);  // a known word, the runner-up to the end token
  EXPECT_EQ(t.copied[0].peak, 3);
  EXPECT_TRUE(t.kept_unknown.empty());
}

TEST(CopyUnknownWords, AnEmptySentenceASecondCallAndASourceWithoutTypedWordsChangeNothing) {
  Translation empty;
  empty.source.tokens = {"</s>"};
  empty.source.typed = {"</s>"};
  empty.source.unknown = {false};
  empty.source.kept_length = 0;
  empty.tokens = {"<unk>", "</s>"};
  empty.attention = {{1.0f}, {1.0f}};
  copy_unknown_words(empty);
  EXPECT_EQ(empty.tokens[0], "<unk>");
  EXPECT_TRUE(empty.copied.empty());

  Translation t = hand_built(kToMerkelThenAngela);
  t.source.typed[0] = "<UNK>";  // a typed name that reads like the unknown token
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
  EXPECT_TRUE(from_a_file.kept_unknown.empty());  // no reason to give: nothing was weighed
}

TEST(IsLowercaseWord, TellsCommonWordsFromNamesAndNumbers) {
  for (const char* word : {"bluish", "café", "straße", "überall", "ça"})
    EXPECT_TRUE(is_lowercase_word(word)) << word;
  for (const char* word : {"Zürich", "FedEx", "NASA", "B2", "2019", "東京", "", "-", "ǅemal"})
    EXPECT_FALSE(is_lowercase_word(word)) << word;
}

TEST(LanguageOfCorpusFile, ReadsATwoLetterCodeBeforeGzOnly) {
  EXPECT_EQ(language_of_corpus_file("../data/multi30k/train.fr.gz"), "fr");
  EXPECT_EQ(language_of_corpus_file("europarl-v7.de-en.de"), "de");
  EXPECT_EQ(language_of_corpus_file("val.en"), "en");
  for (const char* unsaid : {"corpus.txt", "train.src", "train.tgt", "train", "train.gz",
                             "train.EN", "x.e1", "dir.fr/train", ""})
    EXPECT_EQ(language_of_corpus_file(unsaid), "") << unsaid;
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

TEST_F(CopyingToy, BeamTreeNodesNameTheWordTheTranslationCopies) {
  TranslationOptions beam;
  beam.beam_size = 3;
  BeamTree tree;
  const Translation best = translator().translate_with_tree(kSentence, beam, tree);
  ASSERT_EQ(best.copied.size(), 2u);
  // The best path's "<unk>" nodes name the words the translation wrote there; the token stays
  // the model's own.
  ASSERT_EQ(tree.best.size(), best.tokens.size() + 1);  // the root first
  for (size_t i = 0; i < best.tokens.size(); ++i) {
    const BeamNode& node = tree.nodes[static_cast<size_t>(tree.best[i + 1])];
    const bool copied = std::any_of(best.copied.begin(), best.copied.end(),
                                    [&](const CopiedWord& c) { return c.target == int(i); });
    EXPECT_EQ(node.token, copied ? "<unk>" : best.tokens[i]) << i;
    EXPECT_EQ(node.copied, copied ? best.tokens[i] : "") << i;
  }
  EXPECT_NE(beam_tree_json(tree).find("\"copied\":\"Zebra\""), std::string::npos);
  // Keeping "<unk>", nothing is named.
  beam.unknown_words = UnknownWords::kKeep;
  translator().translate_with_tree(kSentence, beam, tree);
  for (const BeamNode& node : tree.nodes) EXPECT_TRUE(node.copied.empty()) << node.id;
}

}  // namespace
}  // namespace attnscope
