// Source words left in a translation (source_leak.h): the rule on hand-made words, a lexicon
// read from a file, and evaluate_corpus counting them per sentence and per way of treating
// "<unk>" on a TorchScript toy that copies its source.
#include <attnscope/corpus_evaluation.h>
#include <attnscope/source_leak.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/scripted_modules.h"

namespace attnscope {
namespace {

TEST(LeakedWords, ALowercaseSourceWordTheTargetTextNeverHasIsLeaked) {
  const TargetLexicon german({"ein", "kleines", "mädchen", "klettert", "a", "."});
  const std::vector<std::string> source = {"A",      "little", "girl",   "climbs", "a",
                                           "ladder", "in",     "Zürich", "."};
  // "ladder" is English in German; "a" occurs in the German text (a name, a grade), so it is
  // not counted; "Zürich" is a name in the source; "ein" is not in the source at all.
  const std::vector<std::string> output = {"ein",    "kleines", "mädchen", "klettert",
                                           "ladder", "a",       "zürich",  "."};
  EXPECT_EQ(leaked_words(source, output, german), (std::vector<size_t>{4}));
  // Words compare lowercased: an output "Ladder" is the same word.
  EXPECT_EQ(leaked_words(source, {"Ladder"}, german), (std::vector<size_t>{0}));
  EXPECT_TRUE(leaked_words({}, output, german).empty());
  EXPECT_TRUE(leaked_words(source, {}, german).empty());
}

TEST(LeakShare, CountsWordsAndSentences) {
  LeakShare share;
  EXPECT_EQ(share.percent(), 0.0);  // no output: no share, not a division by zero
  share.add(2, 10);
  share.add(0, 30);
  EXPECT_EQ(share.leaked_words, 2u);
  EXPECT_EQ(share.output_words, 40u);
  EXPECT_EQ(share.sentences_with_leak, 1u);
  EXPECT_DOUBLE_EQ(share.percent(), 5.0);
}

TEST(TargetLexicon, ReadsEveryWordOfAFileLowercasedAndNamesABadFile) {
  const auto path = std::filesystem::temp_directory_path() / "attnscope-lexicon-test.de";
  {
    std::ofstream out(path);
    out << "Ein Hund rennt.\n\nZwei Hunde, im Park!\n";
  }
  const TargetLexicon lexicon = TargetLexicon::from_file(path.string());
  for (const char* word : {"ein", "hund", "rennt", ".", "zwei", "hunde", ",", "im", "park", "!"})
    EXPECT_TRUE(lexicon.contains(word)) << word;
  EXPECT_FALSE(lexicon.contains("Ein"));  // stored lowercased
  EXPECT_EQ(lexicon.size(), 10u);
  std::filesystem::remove(path);
  try {
    TargetLexicon::from_file(path.string());
    FAIL() << "a missing file must throw";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

// The toy translates its source token by token; the lexicon lacks "b".
TEST(CorpusLeak, EvaluateCorpusCountsLeaksWithALexiconAndOnlyThen) {
  testing::ScriptedModuleSpec spec;
  spec.tokenizer = "attnscope";
  const Translator translator(testing::write_scripted_module(spec, "toy-leak.pt"));
  const TargetLexicon lexicon({"a", "c", "d", "e", "zebra"});
  const std::vector<std::string> sources = {"a b c", "a Zebra c", "d e"};
  const CorpusEvaluation e =
      evaluate_corpus(translator, sources, sources, TranslationOptions{}, {}, &lexicon);
  ASSERT_TRUE(e.has_leak);
  EXPECT_EQ(e.copy.leak.leaked_words, 1u);  // "b"; "Zebra" is a name, copied
  EXPECT_EQ(e.copy.leak.output_words, 8u);
  EXPECT_EQ(e.copy.leak.sentences_with_leak, 1u);
  EXPECT_EQ(e.keep.leak.leaked_words, 1u);  // "<unk>" itself is no source word
  ASSERT_EQ(e.sentences.size(), 3u);
  EXPECT_EQ(e.sentences[0].leaked, 1u);
  EXPECT_EQ(e.sentences[1].leaked, 0u);

  const CorpusEvaluation without = evaluate_corpus(translator, sources, sources, {});
  EXPECT_FALSE(without.has_leak);
  EXPECT_EQ(without.copy.leak.output_words, 0u);
}

}  // namespace
}  // namespace attnscope
