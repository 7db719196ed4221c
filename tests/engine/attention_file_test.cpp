// Attention files from other tools: each format read into tokens and weights, the format found
// from the content, and every bad file refused with one line naming the file, the line and the
// problem.
#include <attnscope/attention_file.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "engine/test_models.h"
#include "time_scale.h"

namespace attnscope {
namespace {

namespace fs = std::filesystem;
using Tokens = std::vector<std::string>;

AttentionFile parse(std::string_view text, AttentionFileOptions options = {},
                    std::optional<std::string_view> source = std::nullopt,
                    std::optional<std::string_view> target = std::nullopt) {
  std::optional<NamedText> s, t;
  if (source) s = NamedText{"src.txt", *source};
  if (target) t = NamedText{"tgt.txt", *target};
  return parse_attention_file({"attn.txt", text}, options, s, t);
}

// The contract every format keeps: one row per target token, each as long as the source.
void expect_shape(const AttentionFile& f) {
  ASSERT_EQ(f.weights.size(), f.target_tokens.size());
  for (const auto& row : f.weights) EXPECT_EQ(row.size(), f.source_tokens.size());
  if (f.has_possible_links()) {
    ASSERT_EQ(f.possible.size(), f.target_tokens.size());
    for (const auto& row : f.possible) EXPECT_EQ(row.size(), f.source_tokens.size());
  }
}

// Exactly what ui/exporter.cpp writes for one heatmap (QJsonDocument sorts the keys).
const char* kExportJson = R"({
    "attention": [
        [
            0.8125,
            0.1875,
            0
        ],
        [
            0.0625,
            0.25,
            0.6875
        ]
    ],
    "model": "additive",
    "source_tokens": [
        "a",
        "dog",
        "</s>"
    ],
    "target_tokens": [
        "ein",
        "</s>"
    ],
    "unknown_source": [
        false,
        true,
        false
    ]
}
)";

TEST(AttentionFile, ReadsAttnscopeJsonExport) {
  const AttentionFile f = parse(kExportJson);
  expect_shape(f);
  EXPECT_EQ(f.format, "attnscope JSON");
  EXPECT_EQ(f.title, "additive");
  EXPECT_EQ(f.source_tokens, (Tokens{"a", "dog", "</s>"}));
  EXPECT_EQ(f.target_tokens, (Tokens{"ein", "</s>"}));
  EXPECT_EQ(f.unknown_source, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(f.weights[0], (std::vector<double>{0.8125, 0.1875, 0.0}));
  EXPECT_EQ(f.weights[1], (std::vector<double>{0.0625, 0.25, 0.6875}));
  EXPECT_FALSE(f.has_possible_links());
}

TEST(AttentionFile, PicksAHeatmapOfACompareGridExport) {
  const std::string grid =
      R"({"heatmaps": [{"attention": [[1]], "model": "dot", "source_tokens": ["a"],)"
      R"( "target_tokens": ["x"]}, {"attention": [[0.5, 0.5]], "model": "general",)"
      R"( "source_tokens": ["a", "b"], "target_tokens": ["y"]}]})";
  AttentionFileOptions second;
  second.line = 2;
  const AttentionFile f = parse(grid, second);
  expect_shape(f);
  EXPECT_EQ(f.title, "general");
  EXPECT_EQ(f.source_tokens, (Tokens{"a", "b"}));
  EXPECT_EQ(parse(grid).title, "dot");
}

TEST(AttentionFile, ReadsALineOfTranslateJson) {
  const std::string lines =
      R"({"source":"a b","source_tokens":["a","b","</s>"],"tokens":["x","</s>"],)"
      R"("probabilities":[0.9,0.8],"attention":[[0.5,0.25,0.25],[0,0,1]],"score":-0.3})"
      "\n"
      R"({"source":"c","source_tokens":["c","</s>"],"tokens":["z","y","</s>"],)"
      R"("attention":[[1,0],[0.75,0.25],[0,1]]})"
      "\n";
  AttentionFileOptions options;
  options.line = 2;
  const AttentionFile f = parse(lines, options);
  expect_shape(f);
  EXPECT_EQ(f.format, "attnscope-cli translate --json");
  EXPECT_EQ(f.source_tokens, (Tokens{"c", "</s>"}));
  EXPECT_EQ(f.target_tokens, (Tokens{"z", "y", "</s>"}));
  EXPECT_EQ(f.weights[1], (std::vector<double>{0.75, 0.25}));
  EXPECT_EQ(parse(lines).target_tokens, (Tokens{"x", "</s>"}));
}

TEST(AttentionFile, ReadsAttnscopeCsvWithQuotedTokens) {
  const AttentionFile f = parse(
      "target\\source,\"a,b\",\"say \"\"hi\"\"\",</s>\n"
      "ein,0.5,0.25,0.25\n"
      "\"x,y\",0,1e-07,0.9999999\n");
  expect_shape(f);
  EXPECT_EQ(f.format, "attnscope CSV");
  EXPECT_EQ(f.source_tokens, (Tokens{"a,b", "say \"hi\"", "</s>"}));
  EXPECT_EQ(f.target_tokens, (Tokens{"ein", "x,y"}));
  EXPECT_EQ(f.weights[1], (std::vector<double>{0.0, 1e-07, 0.9999999}));
}

TEST(AttentionFile, ASubwordModelExportSaysItsView) {
  EXPECT_EQ(parse("target\\source (pieces),▁a,b\n▁x,0.5,0.5\n").view, "pieces");
  EXPECT_EQ(parse("target\\source (words),ab\nx,1\n").view, "words");
  EXPECT_EQ(parse("target\\source,ab\nx,1\n").view, "");  // a word model's: one view
  EXPECT_EQ(parse(R"({"attention": [[1]], "model": "dot · words", "source_tokens": ["a"],)"
                  R"( "target_tokens": ["x"], "view": "words"})")
                .view,
            "words");
  EXPECT_EQ(parse(kExportJson).view, "");
}

TEST(AttentionFile, PharaohSureAndPossibleLinks) {
  const std::string source = "the house is small\nhello\n";
  const std::string target = "das haus ist klein\nhallo\n";
  const AttentionFile f = parse("0-0 1-1 2?2 3p3 3-2\n0-0\n", {}, source, target);
  expect_shape(f);
  EXPECT_EQ(f.format, "Pharaoh alignment");
  EXPECT_EQ(f.source_tokens, (Tokens{"the", "house", "is", "small"}));
  EXPECT_EQ(f.target_tokens, (Tokens{"das", "haus", "ist", "klein"}));
  // weights[target][source]: link i-j puts source i on target j.
  EXPECT_EQ(f.weights[0][0], 1.0);
  EXPECT_EQ(f.weights[1][1], 1.0);
  EXPECT_EQ(f.weights[2][2], kPossibleLinkWeight);
  EXPECT_EQ(f.weights[3][3], kPossibleLinkWeight);
  EXPECT_EQ(f.weights[2][3], 1.0);
  EXPECT_EQ(f.weights[0][1], 0.0);
  ASSERT_TRUE(f.has_possible_links());
  EXPECT_TRUE(f.possible[2][2]);
  EXPECT_TRUE(f.possible[3][3]);
  EXPECT_FALSE(f.possible[2][3]);
  EXPECT_FALSE(f.possible[0][0]);
  double links = 0;
  for (const auto& row : f.weights)
    for (double w : row) links += w;
  EXPECT_EQ(links, 4.0);  // three sure links and two possible ones, nothing else
}

TEST(AttentionFile, PharaohLineOneBasedAndUnalignedPairs) {
  const std::string source = "a b\nc d e\n";
  const std::string target = "x y\nz\n";
  AttentionFileOptions options;
  options.line = 2;
  options.one_based = true;
  const AttentionFile f = parse("1-1\n3-1 1-1\n", options, source, target);
  expect_shape(f);
  EXPECT_EQ(f.source_tokens, (Tokens{"c", "d", "e"}));
  EXPECT_EQ(f.weights[0], (std::vector<double>{1.0, 0.0, 1.0}));
  EXPECT_FALSE(f.has_possible_links());
  // An empty alignment line: a pair without links is a matrix of zeros, not an error.
  AttentionFileOptions first;
  const AttentionFile empty = parse("\n0-0\n", first, source, target);
  expect_shape(empty);
  for (const auto& row : empty.weights)
    for (double w : row) EXPECT_EQ(w, 0.0);
}

TEST(AttentionFile, MarianSoftAlignmentIncludesEndOfSentence) {
  // Rows: the target tokens and </s>; columns: the source tokens and </s>.
  const std::string marian = "ein Hund ||| 0.7,0.2,0.1 0.1,0.8,0.1 0,0.05,0.95\n";
  const AttentionFile f = parse(marian, {}, "a dog\n");
  expect_shape(f);
  EXPECT_EQ(f.format, "Marian soft alignment");
  EXPECT_EQ(f.source_tokens, (Tokens{"a", "dog", "</s>"}));
  EXPECT_EQ(f.target_tokens, (Tokens{"ein", "Hund", "</s>"}));
  EXPECT_EQ(f.weights[1], (std::vector<double>{0.1, 0.8, 0.1}));
  // The sentence itself instead of a file; and an alignment without </s> positions.
  AttentionFileOptions text;
  text.source_text = "a dog";
  const AttentionFile stripped = parse("ein Hund ||| 0.9,0.1 0.2,0.8\n", text);
  expect_shape(stripped);
  EXPECT_EQ(stripped.source_tokens, (Tokens{"a", "dog"}));
  EXPECT_EQ(stripped.target_tokens, (Tokens{"ein", "Hund"}));
}

TEST(AttentionFile, MarianNBestLinePicksItsSourceSentence) {
  const std::string nbest =
      "0 ||| x ||| 1,0 0,1 ||| F0=-1.2 ||| -1.2\n"
      "1 ||| y z ||| 0.5,0.5,0 0,1,0 0,0,1 ||| F0=-2 ||| -2\n";
  AttentionFileOptions options;
  options.line = 2;
  const AttentionFile f = parse(nbest, options, "a\nb c\n");
  expect_shape(f);
  EXPECT_EQ(f.source_tokens, (Tokens{"b", "c", "</s>"}));
  EXPECT_EQ(f.target_tokens, (Tokens{"y", "z", "</s>"}));
}

TEST(AttentionFile, FormatComesFromTheContentAndCanBeForced) {
  EXPECT_EQ(parse(kExportJson).format, "attnscope JSON");
  EXPECT_EQ(parse("target\\source,a\nx,1\n").format, "attnscope CSV");
  EXPECT_EQ(parse("x ||| 1,0\n", {}, "a\n").format, "Marian soft alignment");
  EXPECT_EQ(parse("0-0\n", {}, "a\n", "x\n").format, "Pharaoh alignment");
  for (auto format : {AttentionFileFormat::Json, AttentionFileFormat::Csv,
                      AttentionFileFormat::Pharaoh, AttentionFileFormat::MarianSoft})
    EXPECT_EQ(attention_format_from_name(attention_format_name(format)), format);
  EXPECT_FALSE(attention_format_from_name("xml"));
  AttentionFileOptions csv;
  csv.format = AttentionFileFormat::Csv;
  try {
    parse(kExportJson, csv);
    FAIL() << "JSON read as CSV";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not an attnscope CSV"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// Bad files: one line naming the file and the line, and the problem

struct BadCase {
  const char* name;
  std::string text;
  std::optional<std::string> source, target;
  AttentionFileOptions options;
  std::string where;    // e.g. "'attn.txt' line 3"
  std::string problem;  // a part of the message
};

AttentionFileOptions at_line(size_t line) {
  AttentionFileOptions o;
  o.line = line;
  return o;
}

std::vector<BadCase> bad_cases() {
  const std::string src = "a b c\n", tgt = "x y\n";
  const std::string json_head = "{\"source_tokens\":[\"a\",\"b\"],\"target_tokens\":[\"x\"],";
  return {
      {"empty file", "", {}, {}, {}, "'attn.txt' line 1", "empty"},
      {"blank file", " \n\n", {}, {}, {}, "'attn.txt' line 1", "empty"},
      {"unknown format",
       "hello world\n",
       {},
       {},
       {},
       "'attn.txt' line 1",
       "cannot tell the format"},
      {"pharaoh source index out of range",
       "0-0 3-1\n",
       src,
       tgt,
       {},
       "'attn.txt' line 1",
       "source index 3"},
      {"pharaoh crafted huge index",
       "999999999-1\n",
       src,
       tgt,
       {},
       "'attn.txt' line 1",
       "out of range"},
      {"pharaoh index beyond 64 bits",
       "0-99999999999999999999999\n",
       src,
       tgt,
       {},
       "'attn.txt' line 1",
       "too large"},
      {"pharaoh target index out of range",
       "0-2\n",
       src,
       tgt,
       {},
       "'attn.txt' line 1",
       "target index 2"},
      {"pharaoh zero with one-based", "0-1\n", src, tgt,
       [] {
         AttentionFileOptions o;
         o.one_based = true;
         return o;
       }(),
       "'attn.txt' line 1", "source index 0"},
      {"pharaoh text instead of a link",
       "0-0 a-b\n",
       src,
       tgt,
       {},
       "'attn.txt' line 1",
       "is not a link"},
      {"line zero", "0-0\n", src, tgt, at_line(0), "'attn.txt' line 0", "lines count from 1"},
      {"pharaoh missing line", "0-0\n", src, tgt, at_line(4), "'attn.txt' line 4",
       "the file has 1 line"},
      {"pharaoh source file too short", "0-0\n0-0\n", src, "x\ny\n", at_line(2), "'src.txt' line 2",
       "the file has 1 line"},
      {"pharaoh empty target sentence", "0-0\n", src, "\n", {}, "'tgt.txt' line 1", "empty"},
      {"pharaoh source not UTF-8",
       "0-0\n",
       std::string("a \xC3(\n"),
       tgt,
       {},
       "'src.txt' line 1",
       "not UTF-8"},
      {"pharaoh a million-token source line",
       "0-0\n",
       [] {
         std::string s;
         for (int i = 0; i < 1000000; ++i) s += "w ";
         return s + "\n";
       }(),
       tgt,
       {},
       "'src.txt' line 1",
       "more than 1000 tokens"},
      {"csv ragged row",
       "target\\source,a,b\nx,0.5,0.5\ny,1\n",
       {},
       {},
       {},
       "'attn.txt' line 3",
       "1 weights but the header has 2"},
      {"csv text instead of a number",
       "target\\source,a\nx,abc\n",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "not a number"},
      {"csv nan", "target\\source,a\nx,nan\n", {}, {}, {}, "'attn.txt' line 2", "not a finite"},
      {"csv inf", "target\\source,a\nx,inf\n", {}, {}, {}, "'attn.txt' line 2", "not a finite"},
      {"csv negative weight",
       "target\\source,a\nx,-0.5\n",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "negative"},
      {"csv huge number",
       "target\\source,a\nx,1e999\n",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "out of range"},
      {"csv weight above one",
       "target\\source,a\nx,12\n",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "larger than 1"},
      {"csv ragged row whose token holds a line break",
       "target\\source,a,b\n\"x\ny\",1\n",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "the row of 'x\\ny' has 1 weights"},
      {"csv open quote",
       "target\\source,a\n\"x,1\n",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "never closed"},
      {"csv corner with an unclosed view",
       "target\\source (words,a\nx,1\n",
       {},
       {},
       {},
       "'attn.txt' line 1",
       "not an attnscope CSV"},
      {"csv no rows", "target\\source,a\n", {}, {}, {}, "'attn.txt' line 2", "no rows"},
      {"csv not UTF-8", "target\\source,a\n\xFF,1\n", {}, {}, {}, "'attn.txt' line 2", "not UTF-8"},
      {"csv of the compare grid",
       "model,target_index,target,source_index,source,weight,view\ndot,0,x,0,a,1,\n",
       {},
       {},
       {},
       "'attn.txt' line 1",
       "several heatmaps"},
      {"json ragged row",
       json_head + "\n\"attention\":[\n[0.5,0.5],\n[1]]}",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "2 rows but there are 1 target tokens"},
      {"json short row",
       json_head + "\n\"attention\":\n[\n[1]]}",
       {},
       {},
       {},
       "'attn.txt' line 4",
       "1 weights but there are 2 source tokens"},
      {"json view not a string",
       json_head + "\n\"view\": 2, \"attention\":[[0.5,0.5]]}",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "expected 'view' to be a string, found a number"},
      {"json text instead of a number",
       json_head + "\n\n\"attention\":[[0.5,\"x\"]]}",
       {},
       {},
       {},
       "'attn.txt' line 3",
       "each weight to be a number"},
      {"json negative weight",
       json_head + "\"attention\":[[0.5,\n-1]]}",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "negative"},
      {"json huge number",
       json_head + "\"attention\":[[0.5,\n1e999]]}",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "number overflow"},
      {"json syntax error",
       "{\n\"attention\": [[0.5,,]]}",
       {},
       {},
       {},
       "'attn.txt' line 2",
       "not valid JSON"},
      {"json without attention",
       "{\"source_tokens\":[\"a\"]}",
       {},
       {},
       {},
       "'attn.txt' line 1",
       "no 'attention'"},
      {"json deeply nested",
       "{\"x\":" + std::string(100000, '['),
       {},
       {},
       {},
       "'attn.txt' line 1",
       "nested"},
      {"json missing heatmap",
       "{\"heatmaps\": []}",
       {},
       {},
       at_line(2),
       "'attn.txt' line 1",
       "no heatmap 2"},
      {"json lines missing line",
       "{\"a\":1}\n{\"b\":2}\n",
       {},
       {},
       at_line(5),
       "'attn.txt' line 5",
       "the file has 2 lines"},
      {"marian ragged rows",
       "x y ||| 0.5,0.5 1\n",
       "a\n",
       {},
       {},
       "'attn.txt' line 1",
       "row 2 has 1 weights but row 1 has 2"},
      {"marian counts differ",
       "x y ||| 1,0 0,1 0,1 0,1\n",
       "a\n",
       {},
       {},
       "'attn.txt' line 1",
       "4 target positions"},
      {"marian hard alignment",
       "x y ||| 0-0 1-1\n",
       "a b\n",
       {},
       {},
       "'attn.txt' line 1",
       "hard alignment"},
      {"marian a row of a million weights",
       [] {
         std::string s = "x ||| 0";
         for (int i = 0; i < 1000000; ++i) s += ",0";
         return s + "\n";
       }(),
       "a\n",
       {},
       {},
       "'attn.txt' line 1",
       "more than 1001 weights"},
      {"marian nan", "x ||| nan,0\n", "a\n", {}, {}, "'attn.txt' line 1", "not a finite"},
      {"marian without source", "x ||| 1,0\n", {}, {}, {}, "'attn.txt'", "source sentence"},
      {"marian n-best sentence number beyond the source file",
       "7 ||| x ||| 1,0 ||| F0=1 ||| 1\n",
       "a\n",
       {},
       {},
       "'src.txt' line 8",
       "the file has 1 line"},
  };
}

TEST(AttentionFile, EachBadFileGivesOneLineNamingFileLineAndProblem) {
  for (const BadCase& c : bad_cases()) {
    SCOPED_TRACE(c.name);
    const auto start = std::chrono::steady_clock::now();
    try {
      parse(c.text, c.options, c.source, c.target);
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_EQ(message.rfind(c.where, 0), 0u) << message;
      EXPECT_NE(message.find(c.problem), std::string::npos) << message;
    }
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
              5.0 * testing::time_scale());
  }
}

class AttentionFileOnDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() /
              ("attnscope-attention-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (folder_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string error_of(const std::string& path, const AttentionFileOptions& options = {}) {
    try {
      read_attention_file(path, options);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "(accepted)";
  }
  fs::path folder_;
};

TEST_F(AttentionFileOnDisk, ReadsAlignmentWithItsSentenceFiles) {
  AttentionFileOptions options;
  options.source_path = write("src.txt", "a b\n");
  options.target_path = write("tgt.txt", "x y\n");
  const AttentionFile f = read_attention_file(write("a.align", "0-1 1-0\n"), options);
  expect_shape(f);
  EXPECT_EQ(f.weights, (std::vector<std::vector<double>>{{0, 1}, {1, 0}}));
}

TEST_F(AttentionFileOnDisk, UnusableFilesAreNamed) {
  EXPECT_NE(error_of((folder_ / "none.json").string()).find("does not exist"), std::string::npos);
  EXPECT_NE(error_of(folder_.string()).find("is a directory"), std::string::npos);
  const std::string fifo = (folder_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(error_of(fifo).find("not a regular file"), std::string::npos);  // and no hang
  const std::string big = write("big.json", "{");
  fs::resize_file(big, kMaxAttentionFileBytes + 1);  // sparse: no disk used
  EXPECT_NE(error_of(big).find("are not read"), std::string::npos);
  // The sentence files are checked the same way, and a missing one is named.
  AttentionFileOptions options;
  options.source_path = (folder_ / "missing-src.txt").string();
  options.target_path = write("tgt.txt", "x\n");
  const std::string error = error_of(write("a.align", "0-0\n"), options);
  EXPECT_NE(error.find("missing-src.txt"), std::string::npos) << error;
  EXPECT_NE(error_of(write("a2.align", "0-0\n")).find("source and target sentence files"),
            std::string::npos);
}

TEST_F(AttentionFileOnDisk, UnreadableFileIsNamed) {
  const std::string path = write("locked.json", kExportJson);
  ::chmod(path.c_str(), 0);
  const auto right = [&](const std::string& message) {
    return message.find("cannot read '" + path + "'") != std::string::npos &&
           message.find('\n') == std::string::npos;
  };
  if (::geteuid() != 0) {
    EXPECT_TRUE(right(error_of(path))) << error_of(path);
    return;
  }
  // Root reads any file: the read runs in a child that gives up root first.
  const int result = testing::check_without_root([&] { return right(error_of(path)); });
  EXPECT_EQ(result, 0) << "2: could not drop root; 3: wrong message";
}

}  // namespace
}  // namespace attnscope
