// Issue 30 on the command line, the real attnscope-cli: explain's JSON and table, translate
// --force and --edit-attention, eval --faithfulness, and every hostile input among them ending in
// one line naming the input and the problem.
#include <attnscope/score_functions.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_process.h"
#include "engine/scripted_modules.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;

class CliExplain : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    model_ = new std::string(testing::random_model_file("general"));
    none_ = new std::string(testing::random_model_file(kNoAttention));
  }
  static void TearDownTestSuite() {
    delete model_;
    delete none_;
  }
  static const std::string& model() { return *model_; }
  static const std::string& none() { return *none_; }
  static std::string* model_;
  static std::string* none_;
};
std::string* CliExplain::model_ = nullptr;
std::string* CliExplain::none_ = nullptr;

TEST_F(CliExplain, JsonGivesAnAttributionShapedLikeTheAttention) {
  for (const std::string method : {"grad", "gradxinput", "ig", "loo"}) {
    SCOPED_TRACE(method);
    const Outcome r = run_cli({"explain", "--model", model(), "--method", method, "--json",
                               "--threads", "1", "a b c", "d e"});
    expect_success(r);
    ASSERT_EQ(r.out_lines().size(), 2u) << r;
    for (const auto& line : r.out_lines()) {
      const auto j = nlohmann::json::parse(line);
      EXPECT_EQ(j.at("method"), method);
      const size_t S = j.at("source_tokens").size(), T = j.at("tokens").size();
      ASSERT_GT(T, 0u);
      EXPECT_EQ(j.at("source_tokens").back(), "</s>");
      ASSERT_EQ(j.at("attribution").size(), T);
      ASSERT_EQ(j.at("attention").size(), T);
      ASSERT_EQ(j.at("logp").size(), T);
      for (size_t t = 0; t < T; ++t) {
        ASSERT_EQ(j["attribution"][t].size(), S);
        EXPECT_LE(j["logp"][t].get<double>(), 0.0);
        for (size_t s = 0; s < S; ++s) {
          // Leave one out gives the appended end token no value: null, never a number.
          const bool end = method == "loo" && s + 1 == S;
          EXPECT_EQ(j["attribution"][t][s].is_null(), end) << t << "," << s;
          if (method == "grad" && !end) EXPECT_GE(j["attribution"][t][s].get<double>(), 0.0);
        }
      }
      EXPECT_EQ(j.contains("baseline_logp"), method == "ig");
      if (method == "ig") {
        EXPECT_EQ(j.at("baseline_logp").size(), T);
        // Without --ig-steps: 32 doubled until complete within 1% (or 1024).
        const int steps = j.at("ig_steps").get<int>();
        EXPECT_TRUE(steps == 32 || steps == 64 || steps == 128 || steps == 256 || steps == 512 ||
                    steps == 1024)
            << steps;
        if (steps < 1024) EXPECT_LE(j.at("relative_completeness_gap").get<double>(), 0.01);
        // Completeness: row sums meet log p − baseline log p.
        double gap = 0;
        for (size_t t = 0; t < T; ++t) {
          double sum = 0;
          for (const auto& v : j["attribution"][t]) sum += v.get<double>();
          gap = std::max(gap, std::fabs(sum - (j["logp"][t].get<double>() -
                                               j["baseline_logp"][t].get<double>())));
        }
        EXPECT_NEAR(j.at("completeness_gap").get<double>(), gap, 1e-4);
      }
    }
  }
}

TEST_F(CliExplain, TextIsATableWithACompletenessLineForIntegratedGradients) {
  const Outcome ig =
      run_cli({"explain", "--model", model(), "--method", "ig", "--ig-steps", "64", "a b c"});
  expect_success(ig);
  const auto lines = ig.out_lines();
  ASSERT_GE(lines.size(), 5u) << ig;
  EXPECT_NE(lines[2].find("integrated gradients, 64 steps"), std::string::npos) << ig;
  // The header names the source tokens; then a row per output token, values signed.
  EXPECT_NE(lines[3].find("</s>"), std::string::npos) << ig;
  EXPECT_NE(lines[4].find_first_of("+-"), std::string::npos) << ig;
  EXPECT_EQ(lines.back().rfind("row sums vs log p \u2212 baseline log p: largest gap ", 0), 0u)
      << ig;
  const Outcome loo = run_cli({"explain", "--model", model(), "--method", "loo", "a b c"});
  expect_success(loo);
  EXPECT_EQ(loo.out.find("largest gap"), std::string::npos) << loo;

  // From stdin, one table per line, and the forced target explained instead of the model's own.
  RunOptions input;
  input.input = "a b\nc d\n";
  const Outcome piped = run_cli({"explain", "--model", model(), "--method", "grad"}, input);
  expect_success(piped);
  EXPECT_EQ(std::count(piped.out.begin(), piped.out.end(), '\n') > 8, true) << piped;
  const Outcome forced = run_cli(
      {"explain", "--model", model(), "--method", "loo", "--json", "--force", "b c", "a b c"});
  expect_success(forced);
  const auto j = nlohmann::json::parse(forced.out);
  EXPECT_EQ(j.at("tokens"), (std::vector<std::string>{"b", "c", "</s>"}));
  EXPECT_EQ(j.at("forced"), true);
}

TEST_F(CliExplain, TheModelWithoutAttentionHasAttributionsAndSaysSo) {
  const Outcome json = run_cli({"explain", "--model", none(), "--method", "ig", "--json", "a b"});
  expect_success(json);
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_TRUE(j.at("attention").is_null());
  EXPECT_EQ(j.at("attribution").size(), j.at("tokens").size());
  const Outcome text = run_cli({"explain", "--model", none(), "--method", "loo", "a b"});
  expect_success(text);
  EXPECT_NE(text.out.find("has no attention"), std::string::npos) << text;
}

TEST_F(CliExplain, ForcedTranslationGivesTheForcedTokensProbabilities) {
  const Outcome free = run_cli({"translate", "--model", model(), "--json", "a b c"});
  const Outcome forced =
      run_cli({"translate", "--model", model(), "--json", "--force", "j j", "a b c"});
  expect_success(forced);
  const auto j = nlohmann::json::parse(forced.out);
  EXPECT_EQ(j.at("tokens"), (std::vector<std::string>{"j", "j", "</s>"}));
  ASSERT_EQ(j.at("probabilities").size(), 3u);
  ASSERT_EQ(j.at("attention").size(), 3u);
  // The same model decoding freely chooses its argmax at step 1, at least as probable.
  const auto f = nlohmann::json::parse(free.out);
  EXPECT_GE(f["probabilities"][0].get<double>(), j["probabilities"][0].get<double>());
}

TEST_F(CliExplain, EditedAttentionGivesTheEditedTranslationAndTheRowsItReplaced) {
  const Outcome plain = run_cli({"translate", "--model", model(), "--json", "a b c d"});
  expect_success(plain);
  const auto p = nlohmann::json::parse(plain.out);
  const Outcome edited = run_cli({"translate", "--model", model(), "--json", "--edit-attention",
                                  "2:onehot=3", "--edit-attention", "1:uniform", "a b c d"});
  expect_success(edited);
  const auto e = nlohmann::json::parse(edited.out);
  EXPECT_EQ(e.at("edited_steps"), (std::vector<int>{1, 2}));
  ASSERT_EQ(e.at("original_attention").size(), 2u);
  // The rows the model had are those of the plain translation; the steps read the edited ones.
  EXPECT_EQ(e["original_attention"][0], p["attention"][0]);
  EXPECT_EQ(e["attention"][1], (std::vector<double>{0, 0, 0, 1, 0}));
  for (double w : e["attention"][0]) EXPECT_NEAR(w, 0.2, 1e-6);
  // Text: the translation alone, a line per sentence; 'all' edits every step.
  const Outcome all =
      run_cli({"translate", "--model", model(), "--edit-attention", "all:shuffle=3", "a b", "c"});
  expect_success(all);
  EXPECT_EQ(all.out_lines().size(), 2u) << all;
  // With --force: the target's probabilities under the edit.
  const Outcome both = run_cli({"translate", "--model", model(), "--json", "--force", "b c",
                                "--edit-attention", "1:onehot=0", "a b c d"});
  expect_success(both);
  const auto b = nlohmann::json::parse(both.out);
  EXPECT_EQ(b.at("tokens"), (std::vector<std::string>{"b", "c", "</s>"}));
  EXPECT_EQ(b.at("edited_steps"), (std::vector<int>{1}));
}

struct HostileCase {
  std::vector<std::string> args;     // after the command and the model
  std::vector<std::string> message;  // parts of the one error line
  bool none = false;                 // on the model without attention
};

TEST_F(CliExplain, HostileInputGivesOneLineNamingTheInputAndTheProblem) {
  const std::vector<HostileCase> cases = {
      {{"translate", "--edit-attention", "0:uniform", "a b c"}, {"'0:uniform'", "step"}},
      {{"translate", "--edit-attention", "99:uniform", "a b c"}, {"'99:uniform'", "past the end"}},
      {{"translate", "--edit-attention", "1:onehot=4", "a b c"}, {"'1:onehot=4'", "position 4"}},
      {{"translate", "--edit-attention", "1:zero=1,9", "a b c"}, {"'1:zero=1,9'", "position 9"}},
      {{"translate", "--edit-attention", "1:zero=0,1,2,3", "a b c"}, {"leaves no weight"}},
      {{"translate", "--edit-attention", "1:weights=1,-1,1,1", "a b c"}, {"negative"}},
      {{"translate", "--edit-attention", "1:weights=1,nan,1,1", "a b c"}, {"'nan'", "decimal"}},
      {{"translate", "--edit-attention", "1:weights=1,1", "a b c"}, {"2 weights", "4 tokens"}},
      {{"translate", "--edit-attention", "1:weights=0,0,0,0", "a b c"}, {"sum to 0"}},
      {{"translate", "--edit-attention", "1:shuffle=x", "a b c"}, {"'1:shuffle=x'", "seed"}},
      {{"translate", "--edit-attention", "1:sideways", "a b c"}, {"'1:sideways'", "expected"}},
      {{"translate", "--edit-attention", "1:uniform", "a b c"},
       {"--edit-attention", "no attention"},
       true},
      {{"translate", "--edit-attention", "1:uniform", "--beam", "3", "a"}, {"--beam", "--edit"}},
      {{"translate", "--force", "a", "--beam", "3", "a"}, {"--beam", "--force"}},
      {{"translate", "--force", "a", "b", "c"}, {"--force", "2 sentences"}},
      {{"explain", "--method", "ig", "--ig-steps", "0", "a"}, {"--ig-steps", "0"}},
      {{"explain", "--method", "ig", "--ig-steps", "10000000", "a"}, {"--ig-steps", "10000000"}},
      {{"explain", "--method", "attention", "a"}, {"--method", "attention"}},
      {{"explain", "a"}, {"--method", "required"}},
      {{"explain", "--method", "loo", "--force", "a", "b", "c"}, {"--force", "2 sentences"}},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {c.args[0], "--model", c.none ? none() : model()};
    args.insert(args.end(), c.args.begin() + 1, c.args.end());
    std::string trace;
    for (const auto& a : args) trace += a + " ";
    SCOPED_TRACE(trace);
    expect_clean_error(run_cli(args), c.message);
  }
}

// A TorchScript module without embed(), encode_embedded() or step_with_attention(): leave one
// out works, the rest is refused naming what is missing.
TEST_F(CliExplain, ATorchScriptModuleWithoutTheOptionalMethodsIsRefusedInOneLine) {
  const std::string toy = testing::write_scripted_module({}, "cli_explain_toy");
  expect_success(run_cli({"explain", "--model", toy, "--method", "loo", "a b c"}));
  expect_clean_error(run_cli({"explain", "--model", toy, "--method", "ig", "a b c"}),
                     {"--method ig", "embed"});
  expect_clean_error(run_cli({"translate", "--model", toy, "--edit-attention", "1:uniform", "a"}),
                     {"--edit-attention", "step_with_attention"});
}

// A line longer than a model reads is measured on its first tokens: eval says so once per
// model, naming the first such line, with and without a reference; whole lines say nothing.
TEST_F(CliExplain, EvalSaysWhichLinesAModelReadsCut) {
  const std::string folder = testing::temporary_folder();
  const std::string src =
      write_bytes(folder, "long.src", "a b c\n" + testing::repeat_words("b", 150) + "\n");
  const Outcome bleu = run_cli({"eval", "--model", model(), "--src", src, "--ref", src});
  expect_success(bleu);
  EXPECT_NE(bleu.err.find("1 of 2 lines are longer (the first: line 2)"), std::string::npos)
      << bleu;
  EXPECT_NE(bleu.err.find(" reads the first "), std::string::npos) << bleu;
  const Outcome faithful = run_cli({"eval", "--model", model(), "--src", src, "--faithfulness",
                                    "--permutations", "1", "--ig-steps", "2"});
  expect_success(faithful);
  EXPECT_NE(faithful.err.find("1 of 2 lines are longer"), std::string::npos) << faithful;
  const std::string whole = write_bytes(folder, "short.src", "a b c\nb c\n");
  const Outcome short_lines = run_cli({"eval", "--model", model(), "--src", whole, "--ref", whole});
  expect_success(short_lines);
  EXPECT_EQ(short_lines.err.find("longer"), std::string::npos) << short_lines;
}

TEST_F(CliExplain, EvalFaithfulnessGivesATableAndJsonInRange) {
  const std::string folder = testing::temporary_folder();
  const std::string src = write_bytes(folder, "f.src", "a b c d\nb c\nj i h\n");
  const Outcome text =
      run_cli({"eval", "--model", model(), "--model", none(), "--src", src, "--faithfulness"});
  expect_success(text);
  EXPECT_EQ(text.out.find("BLEU"), std::string::npos) << text;  // no --ref: no BLEU
  EXPECT_NE(text.out.find("TVD perm"), std::string::npos) << text;
  EXPECT_NE(text.out.find("n/a for "), std::string::npos) << text;
  EXPECT_NE(text.out.find("took "), std::string::npos) << text;

  const Outcome json = run_cli({"eval", "--model", model(), "--model", none(), "--src", src,
                                "--ref", src, "--faithfulness", "--permutations", "3", "--json"});
  expect_success(json);
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j.at("models").size(), 2u);
  const auto& f = j["models"][0].at("faithfulness");
  EXPECT_TRUE(j["models"][0].contains("bleu"));
  EXPECT_EQ(f.at("permutations"), 3);
  EXPECT_EQ(f.at("trials_permuted").get<int>(), 3 * f.at("steps").get<int>());
  for (const char* tau : {"tau_ig", "tau_loo"}) {
    EXPECT_GE(f.at(tau).get<double>(), -1.0);
    EXPECT_LE(f.at(tau).get<double>(), 1.0);
  }
  for (const char* share :
       {"tvd_permuted", "tvd_uniform", "argmax_changed_permuted", "argmax_changed_uniform"}) {
    EXPECT_GE(f.at(share).get<double>(), 0.0) << share;
    EXPECT_LE(f.at(share).get<double>(), 1.0) << share;
  }
  const auto& n = j["models"][1].at("faithfulness");
  for (const char* figure : {"tau_ig", "tau_loo", "tvd_permuted", "tvd_uniform"})
    EXPECT_TRUE(n.at(figure).is_null()) << figure;
  EXPECT_NE(n["unavailable"].at("tau_ig").get<std::string>().find("no attention"),
            std::string::npos);

  expect_clean_error(run_cli({"eval", "--model", model(), "--src", src}), {"--ref", "required"});
  expect_clean_error(
      run_cli({"eval", "--model", model(), "--src", src, "--faithfulness", "--metrics"}),
      {"--metrics", "--ref"});
  expect_clean_error(
      run_cli({"eval", "--model", model(), "--src", src, "--faithfulness", "--permutations", "0"}),
      {"--permutations", "0"});
  expect_clean_error(run_cli({"eval", "--model", model(), "--src", src, "--faithfulness",
                              "--ig-steps", "10000000"}),
                     {"--ig-steps", "10000000"});
}

}  // namespace
}  // namespace attnscope
