// Faithfulness of attention (faithfulness.h): Kendall's τ-b against hand computation (ties
// included), total variation distance, the identity edit changing nothing, the corpus figures in
// range and deterministic, and models that have no figure saying why.
#include <attnscope/explanation.h>
#include <attnscope/faithfulness.h>
#include <attnscope/score_functions.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <cmath>

#include "engine/scripted_modules.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

TEST(KendallTau, MatchesHandComputedValues) {
  // No ties: 7 concordant and 3 discordant of 10 pairs.
  EXPECT_DOUBLE_EQ(kendall_tau_b({1, 2, 3, 4, 5}, {3, 1, 2, 5, 4}), 0.4);
  EXPECT_DOUBLE_EQ(kendall_tau_b({1, 2, 3}, {10, 20, 30}), 1.0);
  EXPECT_DOUBLE_EQ(kendall_tau_b({1, 2, 3}, {30, 20, 10}), -1.0);
  // One pair tied in a, another in b: 4 concordant, none discordant, 4 / √(5·5).
  EXPECT_DOUBLE_EQ(kendall_tau_b({1, 2, 2, 3}, {1, 2, 3, 3}), 0.8);
  // Pairs (1,2) and (3,4) tied in a, (3,4) in b as well; the other 4 discordant: −4 / √(4·5).
  EXPECT_NEAR(kendall_tau_b({0, 0, 1, 1}, {1, 2, 0, 0}), -4 / std::sqrt(20.0), 1e-12);
  // An attention row against attributions: 7 concordant, 1 discordant, one pair tied in each:
  // 6 / √(9·9).
  EXPECT_NEAR(kendall_tau_b({0.5, 0.2, 0.2, 0.1, 0.0}, {3, 1, 2, 2, 0}), 6.0 / 9.0, 1e-12);
}

TEST(KendallTau, IsUndefinedForAllTiesOrFewerThanTwoValues) {
  EXPECT_TRUE(std::isnan(kendall_tau_b({}, {})));
  EXPECT_TRUE(std::isnan(kendall_tau_b({1}, {2})));
  EXPECT_TRUE(std::isnan(kendall_tau_b({1, 1, 1}, {1, 2, 3})));
  EXPECT_TRUE(std::isnan(kendall_tau_b({1, 2, 3}, {0, 0, 0})));
  EXPECT_THROW(kendall_tau_b({1, 2}, {1, 2, 3}), std::invalid_argument);
}

TEST(TotalVariation, IsHalfTheL1DistanceOfTheProbabilities) {
  const float half = std::log(0.5f), zero = -std::numeric_limits<float>::infinity();
  EXPECT_DOUBLE_EQ(total_variation_distance({half, half}, {half, half}), 0.0);
  EXPECT_NEAR(total_variation_distance({half, half}, {0.0f, zero}), 0.5, 1e-7);
  EXPECT_NEAR(total_variation_distance({0.0f, zero}, {zero, 0.0f}), 1.0, 1e-7);
  EXPECT_THROW(total_variation_distance({0.0f}, {half, half}), std::invalid_argument);
}

TEST(AttentionInterventions, TheModelsOwnRowChangesNothingAndOthersStayInRange) {
  const Translator translator(testing::random_model_file("general"));
  const std::string sentence = "a b c d e";
  const Translation greedy = translator.translate(sentence);
  std::vector<std::vector<float>> seen;
  const auto identity =
      attention_interventions(translator, sentence, [&](int, const std::vector<float>& row) {
        seen.push_back(row);
        return std::vector<std::vector<float>>{row, row};
      });
  ASSERT_EQ(identity.size(), greedy.tokens.size());
  ASSERT_EQ(seen.size(), greedy.tokens.size());
  for (size_t t = 0; t < identity.size(); ++t) {
    ASSERT_EQ(identity[t].size(), 2u);
    for (const auto& effect : identity[t]) {
      EXPECT_EQ(effect.tvd, 0.0) << "step " << t + 1;
      EXPECT_FALSE(effect.argmax_changed);
    }
    // The rows handed over are the model's own attention.
    ASSERT_EQ(seen[t].size(), greedy.attention[t].size());
    for (size_t s = 0; s < seen[t].size(); ++s) EXPECT_FLOAT_EQ(seen[t][s], greedy.attention[t][s]);
  }
  // A one-hot row at every step: a real change, still a distance.
  const auto onehot =
      attention_interventions(translator, sentence, [](int step, const std::vector<float>& row) {
        std::vector<float> edited(row.size(), 0.0f);
        edited[static_cast<size_t>(step) % row.size()] = 1.0f;
        return std::vector<std::vector<float>>{edited};
      });
  double moved = 0;
  for (const auto& step : onehot)
    for (const auto& effect : step) {
      EXPECT_GE(effect.tvd, 0.0);
      EXPECT_LE(effect.tvd, 1.0);
      moved += effect.tvd;
    }
  EXPECT_GT(moved, 0.0);
  EXPECT_THROW(attention_interventions(translator, sentence,
                                       [](int, const std::vector<float>& row) {
                                         return std::vector<std::vector<float>>{
                                             std::vector<float>(row.size() + 1)};
                                       }),
               std::invalid_argument);
}

TEST(Faithfulness, FiguresAreInRangeAndDeterministic) {
  const Translator translator(testing::random_model_file("additive"));
  const std::vector<std::string> sources = {"a b c d", "e f", "", "j i h g f e d", "a"};
  FaithfulnessOptions options;
  options.permutations = 4;
  options.ig_steps = 8;
  size_t calls = 0;
  const ModelFaithfulness f =
      evaluate_faithfulness(translator, sources, options, [&](size_t done, size_t total) {
        EXPECT_EQ(done, ++calls);
        EXPECT_EQ(total, sources.size());
        return true;
      });
  EXPECT_EQ(calls, sources.size());
  EXPECT_FALSE(f.cancelled);
  EXPECT_EQ(f.sentences, 4u);  // the empty line has no steps
  size_t steps = 0;
  for (const auto& s : sources) steps += s.empty() ? 0 : translator.translate(s).tokens.size();
  EXPECT_EQ(f.steps, steps);
  for (const AttentionAgreement* a : {&f.ig, &f.loo}) {
    ASSERT_TRUE(a->available()) << a->unavailable;
    EXPECT_GT(a->steps, 0u);
    EXPECT_LE(a->steps, f.steps);
    EXPECT_GE(a->mean_tau(), -1.0);
    EXPECT_LE(a->mean_tau(), 1.0);
  }
  EXPECT_EQ(f.permuted.trials, 4 * f.steps);
  EXPECT_EQ(f.uniform.trials, f.steps);
  for (const AttentionIntervention* i : {&f.permuted, &f.uniform}) {
    ASSERT_TRUE(i->available()) << i->unavailable;
    EXPECT_GE(i->mean_tvd(), 0.0);
    EXPECT_LE(i->mean_tvd(), 1.0);
    EXPECT_GE(i->argmax_changed_share(), 0.0);
    EXPECT_LE(i->argmax_changed_share(), 1.0);
  }
  // Random permutations drawn from the seed and the line: the same figures again, and a prefix
  // of the sentences draws what the whole run drew for them.
  const ModelFaithfulness again = evaluate_faithfulness(translator, sources, options);
  EXPECT_EQ(again.permuted.tvd_sum, f.permuted.tvd_sum);
  EXPECT_EQ(again.ig.tau_sum, f.ig.tau_sum);
  const ModelFaithfulness other = [&] {
    FaithfulnessOptions o = options;
    o.seed = 7;
    return evaluate_faithfulness(translator, sources, o);
  }();
  EXPECT_NE(other.permuted.tvd_sum, f.permuted.tvd_sum);
  EXPECT_EQ(other.uniform.tvd_sum, f.uniform.tvd_sum);  // nothing random in uniform
}

TEST(Faithfulness, AModelWithoutAttentionHasNoFiguresAndSaysWhy) {
  const Translator translator(testing::random_model_file(kNoAttention));
  const ModelFaithfulness f = evaluate_faithfulness(translator, {"a b c", "d e"});
  EXPECT_FALSE(f.has_attention);
  EXPECT_EQ(f.sentences, 2u);
  EXPECT_GT(f.steps, 0u);
  for (const std::string* why :
       {&f.ig.unavailable, &f.loo.unavailable, &f.permuted.unavailable, &f.uniform.unavailable})
    EXPECT_NE(why->find("no attention"), std::string::npos) << *why;
  EXPECT_TRUE(std::isnan(f.ig.mean_tau()));
  EXPECT_TRUE(std::isnan(f.loo.mean_tau()));
  EXPECT_TRUE(std::isnan(f.permuted.mean_tvd()));
  EXPECT_TRUE(std::isnan(f.uniform.argmax_changed_share()));
  EXPECT_THROW(attention_interventions(translator, "a b",
                                       [](int, const std::vector<float>& row) {
                                         return std::vector<std::vector<float>>{row};
                                       }),
               std::runtime_error);
}

TEST(Faithfulness, ATorchScriptModuleGetsWhatItsMethodsAllow) {
  const Translator translator(testing::write_scripted_module({}, "faithfulness_toy"));
  const ModelFaithfulness f = evaluate_faithfulness(translator, {"a b c", "d e"});
  // Leave one out needs decoding only.
  ASSERT_TRUE(f.loo.available()) << f.loo.unavailable;
  EXPECT_GT(f.loo.steps, 0u);
  // The others as the module's methods allow, with the engine's reason when they do not.
  EXPECT_EQ(f.ig.unavailable,
            attribution_support(translator, AttributionMethod::kIntegratedGradients));
  EXPECT_EQ(f.permuted.unavailable, edit_support(translator));
  EXPECT_EQ(std::isnan(f.permuted.mean_tvd()), !f.permuted.available());
  EXPECT_EQ(std::isnan(f.ig.mean_tau()), !f.ig.available());
}

TEST(Faithfulness, StopsWhenAskedAndRefusesOptionsOutOfRange) {
  const Translator translator(testing::random_model_file("dot"));
  const ModelFaithfulness f = evaluate_faithfulness(translator, {"a b", "c d", "e f"}, {},
                                                    [](size_t done, size_t) { return done < 1; });
  EXPECT_TRUE(f.cancelled);
  EXPECT_EQ(f.sentences, 1u);
  for (int permutations : {0, -3, FaithfulnessOptions::kMaxPermutations + 1}) {
    FaithfulnessOptions o;
    o.permutations = permutations;
    EXPECT_THROW(evaluate_faithfulness(translator, {"a"}, o), std::invalid_argument);
  }
  for (int steps : {0, AttributionOptions::kMaxIgSteps + 1}) {
    FaithfulnessOptions o;
    o.ig_steps = steps;
    EXPECT_THROW(evaluate_faithfulness(translator, {"a"}, o), std::invalid_argument);
  }
}

}  // namespace
}  // namespace attnscope
