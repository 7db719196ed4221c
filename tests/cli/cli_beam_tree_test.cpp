// Issue 31 on the command line, the real attnscope-cli on the shipped additive model: translate
// --beam K --beam-tree FILE, --length-penalty and --coverage-penalty for translate and eval, and
// their hostile inputs ending in one line.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;

const std::vector<std::string> kSentences = {"a man rides a bike down the street .",
                                             "two dogs play in the snow .", "", "a zorblax qwfp ."};

std::vector<nlohmann::json> read_trees(const std::string& path) {
  std::vector<nlohmann::json> trees;
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) trees.push_back(nlohmann::json::parse(line));
  return trees;
}

std::vector<std::string> args(std::vector<std::string> a) {
  for (const auto& s : kSentences) a.push_back(s);
  return a;
}

TEST(CliBeamTree, OneTreePerSentenceWhoseBestPathIsTheBeamTranslation) {
  const std::string folder = testing::temporary_folder();
  for (const std::string k : {"1", "4"}) {
    SCOPED_TRACE("beam " + k);
    const std::string path = folder + "/tree" + k + ".json";
    // Every logit in float32: greedy search's batch otherwise makes its logits in bfloat16 first
    // where the CPU has it, and its scores differ from one sentence's in the 4th digit.
    const Outcome with_tree =
        run_cli(args({"translate", "--beam", k, "--beam-tree", path, "--json", "--unk", "keep",
                      "--threads", "1", "--output-weights", "fp32"}));
    expect_success(with_tree);
    const Outcome plain = run_cli(args({"translate", "--beam", k, "--json", "--unk", "keep",
                                        "--threads", "1", "--output-weights", "fp32"}));
    expect_success(plain);
    const auto trees = read_trees(path);
    ASSERT_EQ(trees.size(), kSentences.size());
    ASSERT_EQ(plain.out_lines().size(), kSentences.size());
    for (size_t s = 0; s < trees.size(); ++s) {
      const nlohmann::json& tree = trees[s];
      EXPECT_EQ(tree.at("beam"), std::stoi(k));
      const auto& nodes = tree.at("nodes");
      const auto expected = nlohmann::json::parse(plain.out_lines()[s]).at("tokens");
      if (kSentences[s].empty()) {  // nothing searched: an empty tree, still one line
        EXPECT_TRUE(nodes.empty());
        EXPECT_TRUE(tree.at("best").empty());
        continue;
      }
      std::map<int, int> kept;
      for (size_t i = 0; i < nodes.size(); ++i) {
        const auto& n = nodes[i];
        EXPECT_EQ(n.at("id"), i);
        const std::string state = n.at("state");
        EXPECT_TRUE(std::set<std::string>({"root", "kept", "pruned", "finished"}).count(state));
        EXPECT_EQ(n.contains("final_score"), state == "finished") << n;
        if (state == "kept") ++kept[n.at("step").get<int>()];
        if (i == 0) {
          EXPECT_EQ(state, "root");
          EXPECT_TRUE(n.at("parent").is_null());
          continue;
        }
        const auto& parent = nodes.at(n.at("parent").get<size_t>());
        EXPECT_NEAR(n.at("score").get<double>(),
                    parent.at("score").get<double>() + n.at("logp").get<double>(), 1e-5)
            << n;
      }
      for (const auto& [step, count] : kept) EXPECT_LE(count, std::stoi(k)) << "step " << step;
      std::vector<std::string> best;
      for (size_t i = 1; i < tree.at("best").size(); ++i)
        best.push_back(nodes.at(tree.at("best")[i].get<size_t>()).at("token"));
      EXPECT_EQ(nlohmann::json(best), expected) << kSentences[s];
    }
    // The translations printed beside the tree are translate's own (each sentence searched
    // alone: greedy's attention may differ from a batch's in the 8th digit).
    ASSERT_EQ(with_tree.out_lines().size(), kSentences.size());
    for (size_t s = 0; s < kSentences.size(); ++s) {
      const auto a = nlohmann::json::parse(with_tree.out_lines()[s]);
      const auto b = nlohmann::json::parse(plain.out_lines()[s]);
      EXPECT_EQ(a.at("tokens"), b.at("tokens"));
      EXPECT_NEAR(a.at("score").get<double>(), b.at("score").get<double>(), 1e-4);
    }
  }
}

// No penalty flag, and --coverage-penalty 0, print what translate --beam K always printed.
TEST(CliBeamTree, DefaultPenaltiesKeepTheBeamOutput) {
  const Outcome before = run_cli(args({"translate", "--beam", "5", "--json", "--threads", "1"}));
  expect_success(before);
  const Outcome zero = run_cli(
      args({"translate", "--beam", "5", "--json", "--coverage-penalty", "0", "--threads", "1"}));
  expect_success(zero);
  EXPECT_EQ(zero.out, before.out);
  // --length-penalty 0: the score is log P itself, no longer log P / length.
  const Outcome raw = run_cli(
      args({"translate", "--beam", "5", "--json", "--length-penalty", "0", "--threads", "1"}));
  expect_success(raw);
  ASSERT_EQ(raw.out_lines().size(), kSentences.size());
  for (size_t s = 0; s < kSentences.size(); ++s) {
    const auto j = nlohmann::json::parse(raw.out_lines()[s]);
    double log_p = 0;
    for (double p : j.at("probabilities")) log_p += std::log(p);
    EXPECT_NEAR(j.at("score").get<double>(), log_p, 1e-4) << kSentences[s];
  }
}

TEST(CliBeamTree, EvalNamesThePenaltiesItUsed) {
  const std::string folder = testing::temporary_folder();
  const std::string src =
      write_bytes(folder, "s.en", "a man rides a bike .\ntwo dogs play in the snow .\n");
  const std::string ref =
      write_bytes(folder, "s.de", "ein mann fährt fahrrad .\nzwei hunde spielen im schnee .\n");
  const Outcome plain = run_cli({"eval", "--src", src, "--ref", ref, "--beam", "3"});
  expect_success(plain);
  EXPECT_NE(plain.out.find("(additive, beam 3, 2 sentences)"), std::string::npos) << plain;
  const Outcome penalised = run_cli({"eval", "--src", src, "--ref", ref, "--beam", "3",
                                     "--length-penalty", "0.6", "--coverage-penalty", "0.4"});
  expect_success(penalised);
  EXPECT_NE(penalised.out.find(
                "(additive, beam 3, length penalty 0.6, coverage penalty 0.4, 2 sentences)"),
            std::string::npos)
      << penalised;
  const Outcome json = run_cli(
      {"eval", "--src", src, "--ref", ref, "--beam", "3", "--length-penalty", "1", "--json"});
  expect_success(json);
  const auto model = nlohmann::json::parse(json.out).at("models").at(0);
  EXPECT_EQ(model.at("length_penalty"), 1.0);
  EXPECT_EQ(model.at("coverage_penalty"), 0.0);
  EXPECT_EQ(model.at("any_ending"), false);
  const Outcome old_rule =
      run_cli({"eval", "--src", src, "--ref", ref, "--beam", "3", "--any-ending", "--json"});
  expect_success(old_rule);
  EXPECT_EQ(nlohmann::json::parse(old_rule.out).at("models").at(0).at("any_ending"), true);
  expect_success(run_cli({"translate", "--beam", "3", "--any-ending", "a dog runs ."}));
  expect_clean_error(run_cli({"translate", "--any-ending", "--force", "ein hund", "a dog ."}),
                     {"--any-ending"});
  const Outcome old_line =
      run_cli({"eval", "--src", src, "--ref", ref, "--beam", "3", "--any-ending"});
  EXPECT_NE(old_line.out.find("(additive, beam 3, 0.9.0's ending rule, 2 sentences)"),
            std::string::npos)
      << old_line;
}

TEST(CliBeamTree, HostileInputEndsInOneLine) {
  const std::string folder = testing::temporary_folder();
  const std::string s = "a dog .";
  expect_clean_error(run_cli({"translate", "--beam", "3", "--beam-tree", folder, s}),
                     {"--beam-tree", folder});
  expect_clean_error(
      run_cli({"translate", "--beam", "3", "--beam-tree", folder + "/no/such/t.json", s}),
      {"--beam-tree", "no/such/t.json"});
  // Every bad value through translate; eval reads the flags with the same parser, so one
  // value there shows it is wired (each run loads LibTorch: ~2 s, ~6 s under ASan).
  for (const std::string flag : {"--length-penalty", "--coverage-penalty"}) {
    for (const std::string value : {"-1", "nan", "inf", "abc", ""}) {
      SCOPED_TRACE(flag + " " + value);
      expect_clean_error(run_cli({"translate", flag, value, "--beam", "3", s}), {flag});
    }
    expect_clean_error(
        run_cli({"eval", flag, "nan", "--beam", "3", "--src", "/dev/null", "--ref", "/dev/null"}),
        {flag});
  }
  expect_clean_error(
      run_cli({"translate", "--force", "ein hund", "--beam-tree", folder + "/t.json", s}),
      {"--beam-tree"});
  expect_clean_error(
      run_cli({"translate", "--edit-attention", "1:uniform", "--length-penalty", "1", s}),
      {"--length-penalty"});
}

TEST(CliBeamTree, VeryLongSentenceGivesABoundedTree) {
  const std::string path = testing::temporary_folder() + "/long.json";
  const Outcome r = run_cli({"translate", "--beam", "3", "--beam-tree", path, "--threads", "1",
                             testing::repeat_words("dog", 3000)});
  expect_success(r);
  const auto trees = read_trees(path);
  ASSERT_EQ(trees.size(), 1u);
  EXPECT_FALSE(trees[0].at("best").empty());
}

}  // namespace
}  // namespace attnscope
