// attnscope-cli export --from: attention files from other tools (and attnscope's own exports)
// rendered and exported without a model; and a subword model's export in words or pieces, which
// says its view. The real binary, run as a child process.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;
using testing::read_bytes;

class CliAttentionFile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "export needs the UI build";
    folder_ = testing::temporary_folder();
  }
  std::string path(const std::string& name) const { return folder_ + "/" + name; }
  std::string write(const std::string& name, const std::string& text) const {
    return write_bytes(folder_, name, text);
  }
  // export --from FILE --out OUT, with any further arguments; a success is expected.
  std::string export_from(const std::string& file, const std::string& out,
                          std::vector<std::string> more = {}) const {
    std::vector<std::string> args = {"export", "--from", file, "--out", path(out)};
    args.insert(args.end(), more.begin(), more.end());
    expect_success(run_cli(args));
    return read_bytes(path(out));
  }

  std::string folder_;
};

TEST_F(CliAttentionFile, OwnJsonAndCsvExportsRoundTripExactly) {
  const std::string model = testing::random_model_file("location");
  const std::string sentence = "a man , riding a bicycle \" with , commas";
  for (const char* extension : {"json", "csv"}) {
    SCOPED_TRACE(extension);
    const std::string first = path(std::string("first.") + extension);
    expect_success(
        run_cli({"export", "--model", model, "--threads", "1", "--out", first, sentence}));
    const std::string written = read_bytes(first);
    ASSERT_FALSE(written.empty());
    // export → open → export: the same bytes, so the same tokens and weights.
    EXPECT_EQ(export_from(first, std::string("second.") + extension), written);
  }
  // And across formats: the JSON export opened and written as CSV is the CSV export.
  EXPECT_EQ(export_from(path("first.json"), "from-json.csv"), read_bytes(path("first.csv")));
}

TEST_F(CliAttentionFile, ASubwordModelExportsWordsOrPiecesAndSaysWhich) {
  const std::string model = testing::subword_model();
  const std::string sentence = "Kalomi nerutavi so.";
  const auto exported = [&](const std::string& out, std::vector<std::string> more) {
    std::vector<std::string> args = {"export", "--model", model, "--out", path(out)};
    args.insert(args.end(), more.begin(), more.end());
    args.push_back(sentence);
    expect_success(run_cli(args));
    return nlohmann::json::parse(read_bytes(path(out)));
  };
  const nlohmann::json words = exported("words.json", {});  // words by default, as in the app
  EXPECT_EQ(words["view"], "words");
  EXPECT_EQ(words["model"], std::filesystem::path(model).stem().string() + " · words");
  EXPECT_EQ(words["source_tokens"],
            (std::vector<std::string>{"kalomi", "nerutavi", "so", ".", "</s>"}));
  const nlohmann::json pieces = exported("pieces.json", {"--pieces"});
  EXPECT_EQ(pieces["view"], "pieces");
  const auto source = pieces["source_tokens"].get<std::vector<std::string>>();
  EXPECT_GT(source.size(), 5u);
  EXPECT_EQ(source.front().rfind("\u2581", 0), 0u);
  // Rows still sum to 1 in words: a word's pieces merged.
  for (const auto& row : words["attention"]) {
    double sum = 0;
    for (double w : row) sum += w;
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  expect_success(
      run_cli({"export", "--model", model, "--pieces", "--out", path("p.csv"), sentence}));
  EXPECT_EQ(read_bytes(path("p.csv")).rfind("target\\source (pieces),\u2581", 0), 0u);
  // A file says its own view: --pieces does not apply to it.
  const Outcome from =
      run_cli({"export", "--from", path("p.csv"), "--pieces", "--out", path("again.csv")});
  EXPECT_NE(from.exit_code, 0);
  EXPECT_NE(from.err.find("--pieces"), std::string::npos) << from;
}

TEST_F(CliAttentionFile, PharaohLinksBecomeWeightsWithPossibleLinksAtHalf) {
  const std::string align = write("gold.talp", "0-0\n0-0 1-1 2p2 1?2\n");
  const std::string src = write("gold.en", "hello\nthe small house\n");
  const std::string tgt = write("gold.de", "hallo\ndas kleine haus\n");
  const auto json = nlohmann::json::parse(
      export_from(align, "pair2.json", {"--src", src, "--tgt", tgt, "--line", "2"}));
  EXPECT_EQ(json["source_tokens"], (std::vector<std::string>{"the", "small", "house"}));
  EXPECT_EQ(json["target_tokens"], (std::vector<std::string>{"das", "kleine", "haus"}));
  EXPECT_EQ(json["attention"],
            (std::vector<std::vector<double>>{{1, 0, 0}, {0, 1, 0}, {0, 0.5, 0.5}}));
  EXPECT_NE(json["model"].get<std::string>().find("possible links 0.5"), std::string::npos);
  // 1-based indices.
  const std::string one = write("one.talp", "1-1\n");
  const auto first = nlohmann::json::parse(
      export_from(one, "one.json", {"--src", src, "--tgt", tgt, "--one-based"}));
  EXPECT_EQ(first["attention"], (std::vector<std::vector<double>>{{1}}));
}

TEST_F(CliAttentionFile, MarianSoftAlignmentWithTheSourceSentenceGiven) {
  const std::string marian = write("out.txt", "ein Hund ||| 0.7,0.2,0.1 0.1,0.8,0.1 0,0.05,0.95\n");
  const std::string csv = export_from(marian, "marian.csv", {"--src-text", "a dog"});
  EXPECT_EQ(csv,
            "target\\source,a,dog,</s>\n"
            "ein,0.7,0.2,0.1\n"
            "Hund,0.1,0.8,0.1\n"
            "</s>,0,0.05,0.95\n");
  // A picture too: the same rendering as a translation's heatmap.
  const std::string png = export_from(marian, "marian.png", {"--src-text", "a dog"});
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST_F(CliAttentionFile, BadFileGivesOneLineWithFileAndLineAndNoOutput) {
  const std::string bad = write("bad.csv", "target\\source,a,b\nx,0.5,0.5\ny,1\n");
  const std::string out = path("never.json");
  expect_clean_error(run_cli({"export", "--from", bad, "--out", out}),
                     {"'" + bad + "' line 3", "1 weights but the header has 2"});
  EXPECT_FALSE(std::filesystem::exists(out));
  const std::string align = write("links.txt", "0-0 999999999-1\n");
  const std::string src = write("s.txt", "a b\n"), tgt = write("t.txt", "x y\n");
  expect_clean_error(run_cli({"export", "--from", align, "--src", src, "--tgt", tgt, "--out", out}),
                     {"'" + align + "' line 1", "source index 999999999", "out of range"});
  expect_clean_error(
      run_cli({"export", "--from", align, "--src", src, "--tgt", tgt, "--line", "7", "--out", out}),
      {"'" + align + "' line 7", "no such line"});
  expect_clean_error(run_cli({"export", "--from", folder_, "--out", out}), {folder_, "directory"});
  expect_clean_error(run_cli({"export", "--from", write("empty.json", ""), "--out", out}),
                     {"empty.json' line 1", "empty"});
}

TEST_F(CliAttentionFile, FromExcludesAModelAndASentence) {
  const std::string file = write("x.csv", "target\\source,a\nx,1\n");
  const std::string out = path("x.json");
  expect_clean_error(run_cli({"export", "--from", file, "--score", "dot", "--out", out}),
                     {"--from"});
  expect_clean_error(run_cli({"export", "--from", file, "--out", out, "a sentence"}), {"--from"});
  expect_clean_error(run_cli({"export", "--line", "2", "--out", out, "a b"}), {"--line"});
  expect_clean_error(run_cli({"export", "--from", file, "--line", "0", "--out", out}), {"--line"});
  expect_clean_error(run_cli({"export", "--from", file, "--format", "xml", "--out", out}),
                     {"--format"});
  expect_clean_error(run_cli({"export", "--out", out}), {"sentence", "--from"});
}

// Without the UI, export --from refuses as export always has, before reading anything.
TEST(CliAttentionFileHeadless, ExportFromSaysWhatItNeeds) {
  if (ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "the UI build exports";
  const std::string folder = testing::temporary_folder();
  const std::string file = write_bytes(folder, "x.csv", "target\\source,a\nx,1\n");
  expect_clean_error(run_cli({"export", "--from", file, "--out", folder + "/x.png"}),
                     {"export needs the desktop build"});
}

}  // namespace
}  // namespace attnscope
