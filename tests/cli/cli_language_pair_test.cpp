// Language pairs on the command line: `models` lists every pair's shipped models, --pair picks
// among them for translate, eval and export, and a pair without the model asked for is named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;

TEST(CliLanguagePair, ModelsListsEveryPair) {
  const Outcome r = run_cli({"models"});
  expect_success(r);
  bool german = false, french = false;
  for (const std::string& line : r.out_lines()) {
    german =
        german || (line.rfind("additive ", 0) == 0 && line.find(" en-de ") != std::string::npos);
    french =
        french || (line.rfind("additive ", 0) == 0 && line.find(" en-fr ") != std::string::npos &&
                   line.find("/en-fr/additive.attnmodel") != std::string::npos);
  }
  EXPECT_TRUE(german) << r.out;
  EXPECT_TRUE(french) << r.out;
}

// The French model translates into French, and eval --pair scores that same model: its own
// output as the reference gives BLEU 100.
TEST(CliLanguagePair, TranslateAndEvalUseThePairsModel) {
  const std::string folder = testing::temporary_folder();
  const std::string sentences = "A dog runs on the beach.\nTwo men are talking.\n";
  const std::string source = write_bytes(folder, "src.en", sentences);
  RunOptions input;
  input.input = sentences;
  const Outcome french = run_cli({"translate", "--pair", "en-fr", "--threads", "1"}, input);
  expect_success(french);
  ASSERT_EQ(french.out_lines().size(), 2u) << french;
  // Word models write lowercase ("ein hund"), cased models as a reader expects ("Ein Hund").
  const auto lowercase = [](std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
  };
  EXPECT_NE(lowercase(french.out_lines()[0]).find("chien"), std::string::npos) << french;
  const Outcome german = run_cli({"translate", "--threads", "1"}, input);
  expect_success(german);
  EXPECT_NE(lowercase(german.out_lines()[0]).find("hund"), std::string::npos) << german;

  const std::string reference = write_bytes(folder, "ref.fr", french.out);
  const Outcome eval = run_cli(
      {"eval", "--pair", "en-fr", "--src", source, "--ref", reference, "--threads", "1", "--json"});
  expect_success(eval);
  const auto j = nlohmann::json::parse(eval.out);
  EXPECT_DOUBLE_EQ(j.at("models").at(0).at("bleu").at("bleu").get<double>(), 100.0) << eval.out;
}

TEST(CliLanguagePair, APairWithoutTheModelOrNoPairIsNamed) {
  expect_clean_error(run_cli({"translate", "--pair", "en-fr", "--score", "dot", "a dog"}),
                     {"no shipped en-fr model for score function 'dot'", "'additive'"});
  expect_clean_error(run_cli({"translate", "--pair", "english", "a dog"}),
                     {"--pair", "'english' is not a language pair"});
  expect_clean_error(run_cli({"eval", "--pair", "en-xx", "--score", "none", "--src", "/dev/null",
                              "--ref", "/dev/null"}),
                     {"no shipped en-xx model for score function 'none'", "no en-xx models"});
}

// The compare grid of a pair: its models with attention (the `none` baseline has none to
// draw: here one heatmap, so the JSON is that heatmap), titled with the pair.
TEST(CliLanguagePair, ExportAllDrawsOnePairsModels) {
  if (!ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "export needs the UI build";
  const std::string out = testing::temporary_folder() + "/grid.json";
  expect_success(run_cli({"export", "--score", "all", "--pair", "en-fr", "--threads", "1", "--out",
                          out, "A dog runs on the beach."}));
  const auto grid = nlohmann::json::parse(std::ifstream(out));
  // A subword model's title also names its view ("additive (en→fr) · words").
  EXPECT_EQ(grid.at("model").get<std::string>().rfind("additive (en→fr)", 0), 0u) << grid.dump();
  std::string targets = grid.at("target_tokens").dump();
  std::transform(targets.begin(), targets.end(), targets.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  EXPECT_NE(targets.find("chien"), std::string::npos) << grid.dump();
}

}  // namespace
}  // namespace attnscope
