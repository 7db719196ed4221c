// Issue 31's tree headless: attnscope-cli export --beam-tree on the shipped additive model, its
// pictures and its JSON (translate --beam-tree's line), the search's options, and the flags
// that make no sense with it ending in one line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;
namespace fs = std::filesystem;

const std::string kSentence = "a man rides a bike down the street .";

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

// The width and height a PNG's header gives.
std::pair<int, int> png_size(const std::string& bytes) {
  if (bytes.size() < 24 || bytes.compare(1, 3, "PNG") != 0) return {0, 0};
  const auto be32 = [&](size_t at) {
    int value = 0;
    for (size_t i = 0; i < 4; ++i) value = value * 256 + static_cast<unsigned char>(bytes[at + i]);
    return value;
  };
  return {be32(16), be32(20)};
}

class CliExportBeamTree : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "export needs the UI build";
    folder_ = testing::temporary_folder();
  }
  std::string path(const std::string& name) const { return folder_ + "/" + name; }
  std::string folder_;
};

TEST_F(CliExportBeamTree, JsonIsTranslatesBeamTreeLine) {
  for (const std::vector<std::string>& search : {std::vector<std::string>{},
                                                 {"--beam", "3", "--length-penalty", "0.6"},
                                                 {"--beam", "4", "--coverage-penalty", "0.4"}}) {
    SCOPED_TRACE(::testing::PrintToString(search));
    std::vector<std::string> exported = {"export", "--beam-tree", "--out", path("tree.json")};
    std::vector<std::string> translated = {"translate", "--beam-tree", path("translate.json")};
    exported.insert(exported.end(), search.begin(), search.end());
    translated.insert(translated.end(), search.begin(), search.end());
    if (search.empty()) translated.insert(translated.end(), {"--beam", "5"});  // export's default
    for (auto* args : {&exported, &translated}) {
      args->insert(args->end(), {"--threads", "1", kSentence});
      expect_success(run_cli(*args));
    }
    const std::string json = read_file(path("tree.json"));
    EXPECT_EQ(json, read_file(path("translate.json")));
    const auto tree = nlohmann::json::parse(json);
    EXPECT_EQ(tree.at("beam"), search.empty() ? 5 : std::stoi(search[1]));
    const auto& nodes = tree.at("nodes");
    ASSERT_GT(nodes.size(), 10u);
    EXPECT_EQ(nodes[0].at("state"), "root");
    for (size_t i = 1; i < nodes.size(); ++i) {
      const auto& parent = nodes.at(nodes[i].at("parent").get<size_t>());
      EXPECT_EQ(nodes[i].at("step").get<int>(), parent.at("step").get<int>() + 1);
      EXPECT_NEAR(nodes[i].at("score").get<double>(),
                  parent.at("score").get<double>() + nodes[i].at("logp").get<double>(), 1e-5);
    }
    const auto& best = tree.at("best");
    ASSERT_GT(best.size(), 2u);
    EXPECT_EQ(nodes.at(best.back().get<size_t>()).at("state"), "finished");
  }
}

TEST_F(CliExportBeamTree, PicturesAreWritten) {
  expect_success(run_cli({"export", "--beam-tree", "--out", path("tree.png"), kSentence}));
  const auto [width, height] = png_size(read_file(path("tree.png")));
  EXPECT_GT(width, 300);
  EXPECT_GT(height, 300);
  // --width alone keeps the tree's shape.
  expect_success(
      run_cli({"export", "--beam-tree", "--width", "400", "--out", path("small.png"), kSentence}));
  const auto [w, h] = png_size(read_file(path("small.png")));
  EXPECT_EQ(w, 400);
  EXPECT_NEAR(h, 400.0 * height / width, 1.0);
  expect_success(run_cli({"export", "--beam-tree", "--out", path("tree.svg"), kSentence}));
  const std::string svg = read_file(path("tree.svg"));
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  // The longest token of the best path as drawn (a piece's ▁ is drawn as ␣ or not at all).
  expect_success(run_cli({"export", "--beam-tree", "--out", path("tree.json"), kSentence}));
  const auto tree = nlohmann::json::parse(read_file(path("tree.json")));
  std::string longest;
  for (const auto& id : tree.at("best")) {
    std::string token = tree.at("nodes").at(id.get<size_t>()).at("token");
    if (token.rfind("\u2581", 0) == 0) token.erase(0, std::string("\u2581").size());
    if (token.size() > longest.size()) longest = token;
  }
  ASSERT_GE(longest.size(), 3u) << tree.dump();
  EXPECT_NE(svg.find(longest + "<"), std::string::npos) << longest;
  expect_success(run_cli({"export", "--beam-tree", "--out", path("tree.pdf"), kSentence}));
  EXPECT_EQ(read_file(path("tree.pdf")).rfind("%PDF", 0), 0u);
}

TEST_F(CliExportBeamTree, FlagsThatMakeNoSenseEndInOneLine) {
  const std::string out = path("t.png");
  const std::string file = write_bytes(folder_, "a.csv", "target\\source,a\nx,1\n");
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> error;
  };
  const std::vector<Case> cases = {
      {{"--beam-tree", "--from", file, "--out", out}, {"--from", "--beam-tree"}},
      {{"--beam-tree", "--snapshots", file, "--out", out}, {"--snapshots", "--beam-tree"}},
      {{"--beam-tree", "--reference", "ein hund", "--out", out, "a dog"},
       {"--reference", "--beam-tree"}},
      {{"--beam-tree", "--head", "all", "--out", out, "a dog"}, {"--head", "--beam-tree"}},
      {{"--beam-tree", "--score", "all", "--out", out, "a dog"}, {"--score all"}},
      {{"--beam", "3", "--out", out, "a dog"}, {"--beam", "--beam-tree"}},
      {{"--length-penalty", "1", "--out", out, "a dog"}, {"--length-penalty", "--beam-tree"}},
      {{"--beam-tree", "--beam", "0", "--out", out, "a dog"}, {"--beam"}},
      {{"--beam-tree", "--beam", "x", "--out", out, "a dog"}, {"--beam"}},
      {{"--beam-tree", "--length-penalty", "-1", "--out", out, "a dog"}, {"--length-penalty"}},
      {{"--beam-tree", "--coverage-penalty", "nan", "--out", out, "a dog"}, {"--coverage-penalty"}},
      {{"--beam-tree", "--out", out}, {"--beam-tree", "sentence"}},
      {{"--beam-tree", "--out", out, "  "}, {"--beam-tree", "sentence"}},
      {{"--beam-tree", "--out", path("t.csv"), "a dog"}, {path("t.csv"), "unknown file type"}},
      {{"--beam-tree", "--out", path("t.gif"), "a dog"}, {path("t.gif"), "unknown file type"}},
      {{"--beam-tree", "--out", path("no/such/t.png"), "a dog"}, {"no/such/t.png"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"export"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    SCOPED_TRACE(::testing::PrintToString(args));
    expect_clean_error(run_cli(args), c.error);
  }
  EXPECT_FALSE(fs::exists(out));
  const Outcome help = run_cli({"export", "--help"});
  expect_success(help);
  EXPECT_NE(help.out.find("--beam-tree"), std::string::npos);
}

TEST(CliExportBeamTreeHeadless, SaysWhatItNeeds) {
  if (ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "the UI build exports";
  const std::string out = testing::temporary_folder() + "/t.png";
  expect_clean_error(run_cli({"export", "--beam-tree", "--out", out, "a dog"}),
                     {"export needs the desktop build"});
}

}  // namespace
}  // namespace attnscope
