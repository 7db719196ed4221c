#include <attnscope/text.h>
#include <gtest/gtest.h>

namespace attnscope {
namespace {

using Tokens = std::vector<std::string>;

TEST(Text, LowercasesGermanAndFrenchWithUnicodeRules) {
  EXPECT_EQ(to_lower("ÄÖÜ STRAßE Élève ÇA"), "äöü straße élève ça");
}

TEST(Text, SplitsPunctuationAndKeepsWords) {
  EXPECT_EQ(tokenize("Ein Mann, der läuft."), (Tokens{"ein", "mann", ",", "der", "läuft", "."}));
  EXPECT_EQ(tokenize("l'été 2016!"), (Tokens{"l", "'", "été", "2016", "!"}));
}

TEST(Text, NormalisesDecomposedAccents) {
  // "e" + combining acute is one word "é", the same as the precomposed letter.
  EXPECT_EQ(tokenize("E\xCC\x81t\xC3\xA9"), (Tokens{"\xC3\xA9t\xC3\xA9"}));
}

TEST(Text, DropsWhitespaceControlsAndNul) {
  const std::string text("a\tb\x01 c\0d\r\n", 10);
  EXPECT_EQ(tokenize(text), (Tokens{"a", "b", "c", "d"}));
  EXPECT_TRUE(tokenize("   \t ").empty());
  EXPECT_TRUE(tokenize("").empty());
}

TEST(Text, InvalidUtf8NeverThrowsAndIsDropped) {
  EXPECT_EQ(tokenize("ab\xFF\xFE"
                     "cd"),
            (Tokens{"ab", "cd"}));
  EXPECT_FALSE(is_valid_utf8("ab\xFF"));
  EXPECT_FALSE(is_valid_utf8("\xC3"));          // cut off
  EXPECT_FALSE(is_valid_utf8("\xC0\x80"));      // overlong NUL
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));  // surrogate
  EXPECT_TRUE(is_valid_utf8("straße 😀"));
}

TEST(Text, SymbolsAndSpecialTokenLookalikesAreSplit) {
  EXPECT_EQ(tokenize("<unk> </s>"), (Tokens{"<", "unk", ">", "<", "/", "s", ">"}));
  EXPECT_EQ(tokenize("😀!"), (Tokens{"😀", "!"}));
  EXPECT_EQ(tokenize("东京"), (Tokens{"东京"}));
}

TEST(Text, AsWrittenKeepsCaseAndPunctuationAndSplitsOnlyAtSpaces) {
  EXPECT_EQ(split_as_written("Ein Hund rennt am Strand."),
            (Tokens{"Ein", "Hund", "rennt", "am", "Strand."}));
  // NFC, no-break spaces (French typography) and controls separate; invalid bytes are dropped.
  EXPECT_EQ(split_as_written("E\xCC\x81t\xC3\xA9 !\u202F?\tx\x01y ab\xFF"),
            (Tokens{"\xC3\x89t\xC3\xA9", "!", "?", "x", "y", "ab"}));
  // An emoji sequence joined by U+200D stays one word.
  EXPECT_EQ(split_as_written("\U0001F469\u200D\U0001F4BB ok"),
            (Tokens{"\U0001F469\u200D\U0001F4BB", "ok"}));
  EXPECT_TRUE(split_as_written(" \t\n").empty());
  EXPECT_EQ(model_words("Zürich, 2026!", true), (Tokens{"Zürich,", "2026!"}));
  EXPECT_EQ(model_words("Zürich, 2026!", false), (Tokens{"zürich", ",", "2026", "!"}));
}

TEST(Text, BleuWordsCompareCasedOutputWithTokenizedReferences) {
  EXPECT_EQ(bleu_words({"Ein", "Hund", "rennt", "am", "Strand."}),
            tokenize("ein hund rennt am strand ."));
  EXPECT_EQ(bleu_words({"Ein", "Hund."}, /*keep_case=*/true), (Tokens{"Ein", "Hund", "."}));
}

TEST(Text, PrintableKeepsLettersAndDefusesControls) {
  EXPECT_EQ(printable("Grüße, 東京 😀"), "Grüße, 東京 😀");
  EXPECT_EQ(printable("a\tb\nc\r\nd"), "a b c  d");
  EXPECT_EQ(printable("\x1b[2J"), "\uFFFD[2J");
  EXPECT_EQ(printable("x\u202Ey\u2066z"), "xyz");
  EXPECT_EQ(printable("\xC2\x9B"
                      "1m"),
            "\uFFFD"
            "1m");  // C1's escape
  EXPECT_EQ(printable("\xFF"), "\uFFFD");
  EXPECT_EQ(printable(""), "");
}

TEST(Text, JoinTokens) {
  EXPECT_EQ(join_tokens({"a", "b", "."}), "a b .");
  EXPECT_EQ(join_tokens({}), "");
}

}  // namespace
}  // namespace attnscope
