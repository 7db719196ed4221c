// The explain layer: attributions against their definitions (completeness, finite differences,
// explicit removal) and attention edits (the identity edit, hostile specs).
#include <attnscope/explanation.h>
#include <attnscope/model_catalog.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <cmath>

#include "decode/native_step_model.h"
#include "decode/translator_impl.h"
#include "engine/test_models.h"
#include "explain/gradient_model.h"
#include "model/model_file.h"

namespace attnscope {
namespace {

using Kind = AttentionEdit::Kind;

AttributionOptions options(AttributionMethod method, int ig_steps = 32) {
  AttributionOptions o;
  o.method = method;
  o.ig_steps = ig_steps;
  return o;
}

double row_sum(const std::vector<float>& row) {
  double sum = 0.0;
  for (float v : row) sum += v;
  return sum;
}

// Each row's completeness gap relative to the difference it should sum to.
void expect_complete(const Attribution& a, double relative, const std::string& what) {
  ASSERT_GT(a.values.size(), 2u) << what << ": " << a.translation.text() << " / "
                                 << a.translation.tokens.size();
  ASSERT_EQ(a.values.size(), a.translation.tokens.size());
  ASSERT_EQ(a.baseline_log_probabilities.size(), a.values.size());
  for (size_t t = 0; t < a.values.size(); ++t) {
    ASSERT_EQ(a.values[t].size(), a.translation.source.tokens.size());
    const double expected = a.log_probabilities[t] - a.baseline_log_probabilities[t];
    EXPECT_NEAR(row_sum(a.values[t]), expected, relative * std::abs(expected) + 1e-4)
        << what << ", output token " << t << " (" << a.translation.tokens[t] << ")";
    // The explained log-probability is the translation's own.
    EXPECT_NEAR(std::exp(a.log_probabilities[t]), a.translation.probabilities[t], 1e-4) << what;
  }
}

class EveryScore : public ::testing::TestWithParam<std::string> {};

// Completeness: each row of integrated gradients sums to log p(y_t | x) − log p(y_t | 0). With
// 64 trapezoid steps the sum is within 1% of that difference on an untrained model of each score
// function. The shipped models are explained as the app and the CLI explain them, the steps
// doubled until every row is within 1%: a nearly one-hot attention (the shipped `general`) jumps
// from word to word along the path from the zero baseline, and the trapezoid rule needs up to
// 1024 points to follow the jumps (docs/explanation.md, "Completeness").
TEST_P(EveryScore, IntegratedGradientsAreCompleteWithinOnePercent) {
  const Translator untrained(testing::random_model_file(GetParam()));
  // Forced: an untrained model may end at once on its own.
  expect_complete(
      attribute(untrained, "a b c d e f", options(AttributionMethod::kIntegratedGradients, 64),
                std::string("b d f a c")),
      0.01, "untrained " + GetParam());
  const Translator shipped(resolve_model(GetParam()));
  AttributionOptions refined = options(AttributionMethod::kIntegratedGradients, 64);
  refined.ig_tolerance = 0.01;
  const Attribution a =
      attribute(shipped, "a man in a blue shirt is standing on a ladder .", refined);
  expect_complete(a, 0.01,
                  "shipped " + GetParam() + " at " + std::to_string(a.ig_steps) + " steps");
  EXPECT_LE(a.relative_completeness_gap(), 0.01);
}

// Doubling the steps computes only the midpoints and reweighs the earlier points: the result
// is the trapezoid rule at the final count, computed at once. A tolerance no rule meets runs
// the doubling to the largest count within the limit (3 · 2^8 = 768; 1536 is above 1024).
TEST(IntegratedGradients, DoublingTheStepsEqualsTheRuleAtTheFinalCount) {
  const Translator translator(testing::random_model_file("additive"));
  for (int start : {2, 3}) {
    AttributionOptions doubled = options(AttributionMethod::kIntegratedGradients, start);
    doubled.ig_tolerance = 1e-12;
    const Attribution a = attribute(translator, "a b c d e f", doubled, std::string("b d f a c"));
    const int expected_steps = start == 2 ? 1024 : 768;
    ASSERT_EQ(a.ig_steps, expected_steps);
    const Attribution b = attribute(
        translator, "a b c d e f", options(AttributionMethod::kIntegratedGradients, expected_steps),
        std::string("b d f a c"));
    ASSERT_EQ(a.values.size(), b.values.size());
    for (size_t t = 0; t < a.values.size(); ++t)
      for (size_t s = 0; s < a.values[t].size(); ++s)
        EXPECT_NEAR(a.values[t][s], b.values[t][s], 1e-4 + 1e-4 * std::abs(b.values[t][s]))
            << "start " << start << ", row " << t << ", column " << s;
    // Fixed steps stay fixed, however incomplete.
    const Attribution fixed = attribute(translator, "a b c d e f",
                                        options(AttributionMethod::kIntegratedGradients, start),
                                        std::string("b d f a c"));
    EXPECT_EQ(fixed.ig_steps, start);
  }
  AttributionOptions hostile = options(AttributionMethod::kIntegratedGradients, 32);
  for (double tolerance : {-0.1, 1.0, std::nan("")}) {
    hostile.ig_tolerance = tolerance;
    EXPECT_THROW(attribute(translator, "a b", hostile), std::invalid_argument) << tolerance;
  }
  hostile.ig_tolerance = 0.01;
  for (double seconds : {-1.0, std::nan("")}) {
    hostile.ig_seconds = seconds;
    EXPECT_THROW(attribute(translator, "a b", hostile), std::invalid_argument) << seconds;
  }
}

// The refining stops where its caller says: at a time limit no doubling fits in, or when asked
// to stop (a superseded request), with the steps done so far and their gap.
TEST(IntegratedGradients, RefiningStopsAtTheTimeLimitAndWhenAskedTo) {
  const Translator translator(testing::random_model_file("additive"));
  AttributionOptions o = options(AttributionMethod::kIntegratedGradients, 2);
  o.ig_tolerance = 1e-12;  // never met: only the limits stop the doubling
  o.ig_seconds = 1e-9;
  const Attribution timed = attribute(translator, "a b c d e f", o, std::string("b d f a c"));
  EXPECT_EQ(timed.ig_steps, 2);
  EXPECT_TRUE(timed.ig_cut_short);
  o.ig_seconds = 0;
  int asked = 0;
  o.stop_refining = [&asked] { return ++asked > 3; };  // three doublings, then stop
  const Attribution a = attribute(translator, "a b c d e f", o, std::string("b d f a c"));
  EXPECT_EQ(a.ig_steps, 16);
  EXPECT_EQ(asked, 4);
  EXPECT_GT(a.relative_completeness_gap(), 0.0f);
  EXPECT_TRUE(a.ig_cut_short);
  // Each pass that goes on refining is handed to the caller as it stands (the app shows it).
  std::vector<int> passes;
  asked = 0;
  o.on_refining = [&passes](const Attribution& so_far) {
    EXPECT_TRUE(so_far.ig_cut_short);
    EXPECT_EQ(so_far.values.size(), 6u);  // the rows of the forced target and its </s>
    passes.push_back(so_far.ig_steps);
  };
  EXPECT_EQ(attribute(translator, "a b c d e f", o, std::string("b d f a c")).ig_steps, 16);
  EXPECT_EQ(passes, (std::vector<int>{2, 4, 8}));
  o.on_refining = nullptr;
  // Stopped by the step limit, or not refining at all: not cut short.
  o.stop_refining = nullptr;
  EXPECT_FALSE(attribute(translator, "a b c d e f", o, std::string("b d f a c")).ig_cut_short);
  EXPECT_FALSE(attribute(translator, "a b c d e f",
                         options(AttributionMethod::kIntegratedGradients, 2),
                         std::string("b d f a c"))
                   .ig_cut_short);
}

// Integrated gradients' fast path (the encoder's tangents, the rows starting at the decoder)
// gives what the general one gives (every row's full gradient, dotted with the direction), for
// every score function: for cosine's keys through their own derivative, for the others through
// keys linear in the states. 600 points make two groups of rows.
void expect_path_gradients_equal_the_full_gradients(const std::string& score,
                                                    const std::string& decoder) {
  const std::string what = score + " (" + decoder + ")";
  const Translator translator(testing::random_model_file(score, decoder));
  const Translator::Impl& impl = translator.impl();
  std::string why_not;
  std::unique_ptr<GradientModel> model = gradient_model_of(*impl.model, &why_not);
  ASSERT_TRUE(model) << why_not;
  const std::vector<int64_t> source =
      impl.tokens.source_ids(impl.tokens.prepare_source("a c e b d"));
  const std::vector<int64_t> target = impl.tokens.target_ids("d b f a");
  c10::InferenceMode no_inference(false);
  torch::AutoGradMode grad_mode(true);
  torch::manual_seed(7);
  const torch::Tensor x = model->embed(source);
  for (int64_t K : {3, 600}) {
    const torch::Tensor alphas = torch::rand({K, 1, 1}) * 1.5;
    const torch::Tensor points = alphas * x.unsqueeze(0) + 0.1 * torch::randn({K, 1, x.size(1)});
    const torch::Tensor weights = torch::rand({K}) / K;
    const torch::Tensor direction = torch::randn_like(x);
    const PathGradients fast = model->path_gradients(points, weights, target, direction);
    const PathGradients general =
        model->GradientModel::path_gradients(points, weights, target, direction);
    ASSERT_EQ(fast.attribution.sizes(), general.attribution.sizes());
    EXPECT_TRUE(torch::allclose(fast.log_probs, general.log_probs, 1e-4, 1e-5))
        << what << ", " << K << " points";
    EXPECT_TRUE(torch::allclose(fast.attribution, general.attribution, 1e-3, 1e-5))
        << what << ", " << K << " points: largest difference "
        << (fast.attribution - general.attribution).abs().max().item<float>() << " of values up to "
        << general.attribution.abs().max().item<float>();
    // Not zero: the comparison compares something.
    EXPECT_GT(general.attribution.abs().max().item<float>(), 1e-4) << what;
  }
}

TEST_P(EveryScore, PathGradientsEqualTheFullGradientsAlongTheDirection) {
  expect_path_gradients_equal_the_full_gradients(GetParam(), kGruDecoder);
}

TEST(Explanation, ConditionalGruIntegratedGradientsAreCompleteWithinOnePercentAt64Steps) {
  const Translator untrained(testing::random_model_file("additive", kConditionalGruDecoder));
  expect_complete(
      attribute(untrained, "a b c d e f", options(AttributionMethod::kIntegratedGradients, 64),
                std::string("b d f a c")),
      0.01, "untrained additive (cgru)");
}

// The conditional GRU queries attention between its two GRUs: the fast path must follow it.
TEST(Explanation, ConditionalGruPathGradientsEqualTheFullGradientsAlongTheDirection) {
  for (const char* score : {"additive", "location", "none"})
    expect_path_gradients_equal_the_full_gradients(score, kConditionalGruDecoder);
}

INSTANTIATE_TEST_SUITE_P(Explanation, EveryScore,
                         ::testing::Values("dot", "general", "additive", "scaled_dot", "cosine",
                                           "location", "none"));

// The gradient of log p(y_t) with respect to a source embedding coordinate matches the central
// difference of log p itself, on a tiny untrained model.
TEST(Explanation, GradientsMatchFiniteDifferences) {
  const Translator translator(testing::random_model_file("additive"));
  const Translator::Impl& impl = translator.impl();
  std::string why_not;
  std::unique_ptr<GradientModel> model = gradient_model_of(*impl.model, &why_not);
  ASSERT_TRUE(model) << why_not;
  const std::vector<int64_t> source = impl.tokens.source_ids(impl.tokens.prepare_source("a c e b"));
  const std::vector<int64_t> target = impl.tokens.target_ids("d b f");
  c10::InferenceMode no_inference(false);
  torch::AutoGradMode grad_mode(true);
  const torch::Tensor x = model->embed(source);
  const TargetGradients g = model->gradients(x.unsqueeze(0), torch::ones({1}), target);
  const auto T = static_cast<int64_t>(target.size());
  ASSERT_EQ(g.weighted_sum.sizes(), (std::vector<int64_t>{T, x.size(0), x.size(1)}));
  // The log-probabilities are forced decoding's.
  const Translation forced = translator.force_decode("a c e b", "d b f");
  for (int64_t t = 0; t < T; ++t)
    EXPECT_NEAR(std::exp(g.log_probs[0][t].item<float>()), forced.probabilities[t], 1e-5);
  const double h = 1e-2;
  int checked = 0;
  for (int64_t i = 0; i < x.size(0); ++i) {
    for (int64_t e = 0; e < x.size(1); e += 3) {
      torch::Tensor plus = x.clone(), minus = x.clone();
      plus[i][e] += h;
      minus[i][e] -= h;
      const torch::Tensor points = torch::stack({plus, minus});
      const torch::Tensor lp = model->gradients(points, torch::zeros({2}), target).log_probs;
      for (int64_t t = 0; t < T; ++t) {
        const double difference = (lp[0][t].item<double>() - lp[1][t].item<double>()) / (2 * h);
        const double gradient = g.weighted_sum[t][i][e].item<double>();
        EXPECT_NEAR(gradient, difference, 2e-3 + 0.02 * std::abs(difference))
            << "output " << t << ", source " << i << ", coordinate " << e;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 50);
}

// grad is the norm of the gradient, gradient × input its dot product with the embedding: on the
// same translation, |gradxinput| ≤ grad · ‖e_i‖ (Cauchy–Schwarz), with equality nowhere needed.
TEST(Explanation, GradientMethodsShareTheirTranslation) {
  const Translator translator(resolve_model("general"));
  const std::string sentence = "two dogs play in the snow .";
  const Attribution grad = attribute(translator, sentence, options(AttributionMethod::kGradient));
  const Attribution gxi =
      attribute(translator, sentence, options(AttributionMethod::kGradientTimesInput));
  ASSERT_EQ(grad.translation.tokens, gxi.translation.tokens);
  bool negative = false;
  for (size_t t = 0; t < grad.values.size(); ++t)
    for (size_t i = 0; i < grad.values[t].size(); ++i) {
      EXPECT_GE(grad.values[t][i], 0.0f);
      negative = negative || gxi.values[t][i] < 0.0f;
    }
  EXPECT_TRUE(negative) << "gradient × input is signed";
}

// Leave one out equals forced decoding of the sentence without that word, explicitly.
TEST(Explanation, LeaveOneOutEqualsExplicitRemoval) {
  // A word model: each of these words is one source token (a cased subword model splits "."
  // and its word differently from a typed, tokenised sentence).
  const Translator translator(resolve_model("general"));
  const std::vector<std::string> words{"a", "woman", "is", "reading", "a", "book", "."};
  std::string sentence;
  for (const auto& w : words) sentence += (sentence.empty() ? "" : " ") + w;
  const Attribution loo = attribute(translator, sentence, options(AttributionMethod::kLeaveOneOut));
  const std::string target = loo.translation.text();
  const Translation full = translator.force_decode(sentence, target);
  ASSERT_EQ(full.tokens, loo.translation.tokens) << "the target survives its own tokenisation";
  for (size_t i = 0; i < words.size(); ++i) {
    std::string without;
    for (size_t j = 0; j < words.size(); ++j)
      if (j != i) without += (without.empty() ? "" : " ") + words[j];
    const Translation removed = translator.force_decode(without, target);
    for (size_t t = 0; t < full.tokens.size(); ++t)
      EXPECT_NEAR(loo.values[t][i],
                  std::log(full.probabilities[t]) - std::log(removed.probabilities[t]), 2e-3)
          << "word " << i << ", output " << t;
  }
  // The appended end token is never left out.
  for (const auto& row : loo.values) EXPECT_TRUE(std::isnan(row.back()));
}

// A step-wise session's tokens ("<unk>" kept) are explained as they are: the same rows as
// forcing their text when the text survives tokenisation, and "<unk>" stays "<unk>".
TEST(Explanation, SessionTokensAreExplainedAsEmitted) {
  const Translator translator(resolve_model("additive"));
  const std::string sentence = "a zorblax is sitting on a bench .";
  const auto session = translator.start(sentence, 1, UnknownWords::kKeep);
  while (!session->finished()) session->step();
  std::vector<std::string> tokens;
  for (const Step& step : session->steps()) tokens.push_back(step.token);
  const Attribution a =
      attribute_tokens(translator, sentence, options(AttributionMethod::kLeaveOneOut), tokens);
  ASSERT_EQ(a.values.size(), tokens.size());
  for (size_t t = 0; t < tokens.size(); ++t)
    EXPECT_NEAR(std::exp(a.log_probabilities[t]), session->steps()[t].probability, 1e-4) << t;
}

TEST(Explanation, TheNoneModelHasAttributionsButNoEdits) {
  const Translator translator(resolve_model("none"));
  EXPECT_FALSE(translator.impl().model->has_attention());
  const Attribution a =
      attribute(translator, "a dog runs .", options(AttributionMethod::kGradient));
  EXPECT_FALSE(a.values.empty());
  EXPECT_NE(edit_support(translator), "");
  WhatIf what_if;
  what_if.edits.push_back(parse_attention_edit("1:uniform"));
  EXPECT_THROW(translate_with_edits(translator, "a dog runs .", what_if), std::runtime_error);
}

// Editing every row to the model's own row gives the model's translation, bit for bit.
TEST(Explanation, TheIdentityEditChangesNoBit) {
  for (const std::string score : {"additive", "location", "dot"}) {
    const Translator translator(resolve_model(score));
    const std::string sentence = "a little girl climbs into a wooden playhouse .";
    const Translation own = translator.translate(sentence);
    WhatIf what_if;
    for (size_t t = 0; t < own.attention.size(); ++t) {
      AttentionEdit edit;
      edit.step = static_cast<int>(t);
      edit.kind = Kind::kWeights;
      edit.weights = own.attention[t];
      what_if.edits.push_back(edit);
    }
    const EditedTranslation edited = translate_with_edits(translator, sentence, what_if);
    EXPECT_EQ(edited.edited_steps.size(), own.tokens.size());
    EXPECT_EQ(edited.translation.tokens, own.tokens) << score;
    EXPECT_EQ(edited.translation.probabilities, own.probabilities) << score;
    EXPECT_EQ(edited.translation.attention, own.attention) << score;
    EXPECT_EQ(edited.original_rows, own.attention) << score;
  }
}

// A source of one token has one distribution: uniform is the model's own row.
TEST(Explanation, AUniformEditOfAOneTokenSourceChangesNothing) {
  Checkpoint checkpoint = load_model_file(testing::random_model_file("general"));
  Seq2Seq seq2seq(checkpoint.config);
  load_parameters(*seq2seq, checkpoint, "model");
  seq2seq->eval();
  NativeStepModel model(seq2seq);
  c10::InferenceMode inference;
  auto rows = model.encode({{5}});
  const torch::Tensor previous = torch::full({1}, model.bos(), torch::kLong);
  const StepOutput own = model.step(*rows, previous);
  AttentionEdit uniform;
  uniform.step = 0;
  const std::vector<float> row = uniform.apply({own.attention[0][0].item<float>()});
  const StepOutput edited =
      model.step_with_attention(*rows, previous, torch::tensor(row).unsqueeze(0));
  EXPECT_TRUE(torch::equal(own.log_probs, edited.log_probs));
  EXPECT_TRUE(torch::equal(own.attention, edited.attention));
}

TEST(Explanation, EditsDoWhatTheySay) {
  const std::vector<float> row{0.1f, 0.2f, 0.3f, 0.4f};
  EXPECT_EQ(parse_attention_edit("2:uniform").apply(row), std::vector<float>(4, 0.25f));
  EXPECT_EQ(parse_attention_edit("2:onehot=2").apply(row), (std::vector<float>{0, 0, 1, 0}));
  const std::vector<float> zeroed = parse_attention_edit("all:zero=0,3").apply(row);
  EXPECT_FLOAT_EQ(zeroed[1], 0.4f);
  EXPECT_FLOAT_EQ(zeroed[2], 0.6f);
  EXPECT_EQ(zeroed[0], 0.0f);
  EXPECT_FLOAT_EQ(parse_attention_edit("1:weights=1,1,2,0").apply(row)[2], 0.5f);
  std::vector<float> shuffled = parse_attention_edit("1:shuffle=7").apply(row);
  EXPECT_EQ(shuffled, parse_attention_edit("1:shuffle=7").apply(row)) << "a seed is repeatable";
  std::sort(shuffled.begin(), shuffled.end());
  EXPECT_EQ(shuffled, row) << "a permutation of the row";
  EXPECT_EQ(parse_attention_edit("3:zero=1,2").spec(), "3:zero=1,2");
  EXPECT_EQ(parse_attention_edit("all:shuffle=9").step, AttentionEdit::kEveryStep);
}

// Every bad spec is refused with a message that names it and says what is wrong.
TEST(Explanation, HostileEditSpecsAreRefusedByName) {
  const std::vector<std::pair<std::string, std::string>> bad{
      {"0:uniform", "step '0'"},
      {"-1:uniform", "step '-1'"},
      {"99999999999:uniform", "step '99999999999'"},
      {"uniform", "expected STEP:uniform"},
      {"1:blur", "expected STEP:uniform"},
      {"1:uniform=3", "expected STEP:uniform"},
      {"1:zero=", "gives no position"},
      {"1:zero=x", "position 'x'"},
      {"1:onehot=1,2", "onehot takes one position"},
      {"1:shuffle=-4", "seed '-4'"},
      {"1:weights=1,-1", "weight -1 is negative"},
      {"1:weights=nan,1", "weight 'nan'"},
      {"1:weights=inf", "weight 'inf'"},
      {"1:weights=0,0", "sum to 0"},
      {"1:weights=1,,2", "weight ''"},
      // Decimal as written: no hexadecimal, no spaces either side, nothing past a float.
      {"1:weights=0x10,1", "weight '0x10'"},
      {"1:weights= 0.5,1", "weight ' 0.5'"},
      {"1:weights=0.5 ,1", "weight '0.5 '"},
      {"1:weights=1e39,1", "weight '1e39'"},
      {"1:zero=0x1", "position '0x1'"},
      {" 1:uniform", "step ' 1'"},
  };
  for (const auto& [spec, problem] : bad) {
    try {
      parse_attention_edit(spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("'" + spec + "'"), std::string::npos) << message;
      EXPECT_NE(message.find(problem), std::string::npos) << message;
    }
  }
  const std::vector<float> row{0.5f, 0.5f};
  EXPECT_THROW(parse_attention_edit("1:zero=2").apply(row), std::invalid_argument);
  EXPECT_THROW(parse_attention_edit("1:onehot=7").apply(row), std::invalid_argument);
  EXPECT_THROW(parse_attention_edit("1:zero=0,1").apply(row), std::invalid_argument);
  EXPECT_THROW(parse_attention_edit("1:weights=1,2,3").apply(row), std::invalid_argument);
  // apply() checks an edit built in code as parse_attention_edit checks a spec.
  AttentionEdit built;
  built.kind = Kind::kWeights;
  for (const std::vector<float>& weights :
       {std::vector<float>{0.0f, 0.0f}, {2.0f, -1.0f}, {NAN, 1.0f}, {INFINITY, 1.0f}}) {
    built.weights = weights;
    EXPECT_THROW(built.apply(row), std::invalid_argument) << built.spec();
  }
  built.kind = Kind::kOneHot;
  EXPECT_THROW(built.apply(row), std::invalid_argument) << "onehot without a position";
  // A spec of 30,000 weights is quoted, not echoed whole.
  std::string long_spec = "1:weights=1";
  for (int i = 0; i < 30000; ++i) long_spec += ",-1";
  try {
    parse_attention_edit(long_spec);
    ADD_FAILURE() << "a negative weight was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u) << e.what();
  }
}

TEST(Explanation, AStepTakesOneEditAndAnEmptySentenceNone) {
  const Translator translator(resolve_model("additive"));
  WhatIf what_if;
  what_if.edits = {parse_attention_edit("2:onehot=0"), parse_attention_edit("2:onehot=1")};
  try {
    translate_with_edits(translator, "a dog runs .", what_if);
    ADD_FAILURE() << "two edits of step 2 were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("both edit step 2"), std::string::npos) << e.what();
  }
  what_if.edits = {parse_attention_edit("all:uniform"), parse_attention_edit("all:zero=0")};
  EXPECT_THROW(translate_with_edits(translator, "a dog runs .", what_if), std::invalid_argument);
  what_if.edits = {parse_attention_edit("1:uniform")};
  for (const std::string empty : {"", "   "})
    EXPECT_THROW(translate_with_edits(translator, empty, what_if), std::invalid_argument)
        << "'" << empty << "'";
  // An `all` edit and a step's own combine, `all` first, whatever their order on the line.
  const std::vector<AttentionEdit> both = {parse_attention_edit("1:onehot=1"),
                                           parse_attention_edit("all:uniform")};
  what_if.edits = both;
  const EditedTranslation edited = translate_with_edits(translator, "a dog runs .", what_if);
  ASSERT_FALSE(edited.translation.attention.empty());
  EXPECT_EQ(edited.translation.attention[0][1], 1.0f) << "step 1's own edit applies last";
  EXPECT_EQ(edited.translation.attention.back()[0], edited.translation.attention.back()[1])
      << "the other steps read the uniform row";
}

TEST(Explanation, EditsPastTheEndAndBadStepCountsAreRefused) {
  const Translator translator(resolve_model("additive"));
  WhatIf what_if;
  what_if.edits.push_back(parse_attention_edit("40:uniform"));
  try {
    translate_with_edits(translator, "a dog .", what_if);
    ADD_FAILURE() << "an edit past the end was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("past the end of the translation"), std::string::npos);
  }
  what_if.edits = {parse_attention_edit("1:zero=9")};
  EXPECT_THROW(translate_with_edits(translator, "a dog .", what_if), std::invalid_argument);
  for (int steps : {0, -3, 10000000})
    EXPECT_THROW(
        attribute(translator, "a dog .", options(AttributionMethod::kIntegratedGradients, steps)),
        std::invalid_argument)
        << steps;
  EXPECT_THROW(parse_attribution_method("saliency"), std::invalid_argument);
  // A forced target longer than the model would decode is refused (time and memory).
  EXPECT_THROW(attribute(translator, "a dog .", options(AttributionMethod::kLeaveOneOut),
                         testing::repeat_words("hund", 40)),
               std::invalid_argument);
}

}  // namespace
}  // namespace attnscope
