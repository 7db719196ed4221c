// TorchScript models' optional methods (docs/model-protocol.md, "Optional methods"): gradients of
// the shipped examples against finite differences, editing with a step's own attention against
// the step, and modules without the methods (or with broken ones) that still translate.
#include <attnscope/explanation.h>
#include <attnscope/translator.h>
#include <c10/core/InferenceMode.h>
#include <gtest/gtest.h>
#include <torch/script.h>

#include <cmath>
#include <filesystem>

#include "decode/scripted_step_model.h"
#include "engine/scripted_modules.h"
#include "engine/test_models.h"
#include "explain/gradient_model.h"
#include "explain/scripted_gradient_model.h"
#include "model/scripted_model.h"

namespace attnscope {
namespace {

using testing::ScriptedModuleSpec;
using testing::write_scripted_module;

// Both examples number their words from id 3: gru.pt's "zero".."nine" (English and German),
// transformer.pt's "0".."9" and "zero".."nine"; id 1 is </s>.
constexpr int64_t kEos = 1;
int64_t word(int digit) { return 3 + digit; }

std::string example(const std::string& file) {
  const auto tests = std::filesystem::path(__FILE__).parent_path().parent_path();
  return (tests.parent_path() / "examples" / "torchscript" / file).string();
}

std::shared_ptr<const ScriptedModel> load(const std::string& path) {
  torch::NoGradGuard no_grad;  // as Translator loads a model
  return std::make_shared<const ScriptedModel>(path);
}

std::unique_ptr<GradientModel> gradient_model(std::shared_ptr<const ScriptedModel> model) {
  std::string why_not;
  std::unique_ptr<GradientModel> gradients = scripted_gradient_model(std::move(model), &why_not);
  EXPECT_TRUE(gradients) << why_not;
  return gradients;
}

// log p(target[t] | embeddings, target[<t]) by plain forced decoding, without autograd.
std::vector<double> forced_log_probs(const ScriptedModel& model, const torch::Tensor& embeddings,
                                     const std::vector<int64_t>& target) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> state = model.encode_embedded(embeddings);
  std::vector<double> log_probs;
  int64_t previous = model.attributes().bos;
  for (int64_t id : target) {
    ScriptedStep step = model.step(state, previous, embeddings.size(0));
    log_probs.push_back(step.log_probs[id].item<double>());
    state = std::move(step.state);
    previous = id;
  }
  return log_probs;
}

// Central differences with h = 1e-2 along two directions for every (t, i): the gradient's own
// direction on token i's embedding, and the one coordinate of it where the gradient is largest.
// The targets are not the models' translations: there log p ≈ 0 and its gradients (~1e-4) drown
// in float32's rounding; here they are ~0.1–1, and the differences agree within 0.4 % (gru.pt)
// and 1.5 % (transformer.pt; ReLU and LayerNorm) in PyTorch, where a gradient of another step,
// token or sign, or a missing weight, is off by far more than `tolerance`.
void expect_gradients_match_differences(const std::string& file, const std::vector<int64_t>& source,
                                        const std::vector<int64_t>& target, double tolerance) {
  const std::shared_ptr<const ScriptedModel> model = load(example(file));
  const std::unique_ptr<GradientModel> gradients = gradient_model(model);
  ASSERT_TRUE(gradients);
  const torch::Tensor x = gradients->embed(source);
  const auto S = static_cast<int64_t>(source.size()), T = static_cast<int64_t>(target.size());
  ASSERT_EQ(x.dim(), 2);
  ASSERT_EQ(x.size(0), S);
  const TargetGradients g = gradients->gradients(x.unsqueeze(0), torch::ones({1}), target);
  ASSERT_EQ(g.log_probs.sizes(), (std::vector<int64_t>{1, T}));
  ASSERT_EQ(g.weighted_sum.sizes(), (std::vector<int64_t>{T, S, x.size(1)}));

  const std::vector<double> log_probs = forced_log_probs(*model, x, target);
  for (int64_t t = 0; t < T; ++t)
    EXPECT_NEAR(g.log_probs[0][t].item<double>(), log_probs[static_cast<size_t>(t)], 1e-5)
        << file << " step " << t;

  const double h = 1e-2;
  double largest = 0.0;
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t i = 0; i < S; ++i) {
      const torch::Tensor gradient = g.weighted_sum[t][i];
      largest = std::max(largest, gradient.abs().max().item<double>());
      for (const char* direction : {"gradient", "coordinate"}) {
        torch::Tensor d = torch::zeros_like(x);
        if (direction == std::string("gradient"))
          d[i] = gradient / gradient.norm();
        else
          d[i][gradient.abs().argmax().item<int64_t>()] = 1.0;
        const double analytic = (g.weighted_sum[t] * d).sum().item<double>();
        const double difference = (forced_log_probs(*model, x + h * d, target)[t] -
                                   forced_log_probs(*model, x - h * d, target)[t]) /
                                  (2 * h);
        EXPECT_NEAR(difference, analytic, tolerance * std::abs(analytic) + 1e-4)
            << file << " step " << t << " token " << i << " along the " << direction;
      }
    }
  }
  EXPECT_GT(largest, 0.1) << "the gradients are too small to tell a wrong one from rounding";
}

TEST(ScriptedExplain, GruGradientsMatchFiniteDifferences) {
  // "nine four six two" forced to "neun vier sechs zwei" (not reversed: unlikely, on purpose)
  const std::vector<int64_t> source = {word(9), word(4), word(6), word(2), kEos};
  expect_gradients_match_differences("gru.pt", source, source, 0.02);
}

TEST(ScriptedExplain, TransformerGradientsMatchFiniteDifferences) {
  // "1 2 3 4 5" forced to "one two three four five" (not rotated: unlikely, on purpose)
  const std::vector<int64_t> source = {word(1), word(2), word(3), word(4), word(5)};
  std::vector<int64_t> target = source;
  target.push_back(kEos);
  expect_gradients_match_differences("transformer.pt", source, target, 0.05);
}

TEST(ScriptedExplain, GradientsAreWeighedAndSummedOverThePoints) {
  const std::unique_ptr<GradientModel> gradients = gradient_model(load(example("gru.pt")));
  ASSERT_TRUE(gradients);
  const std::vector<int64_t> source = {word(3), word(1), word(4), kEos};
  const std::vector<int64_t> target = {word(4), word(1), word(3), kEos};
  const torch::Tensor x = gradients->embed(source);
  const TargetGradients once = gradients->gradients(x.unsqueeze(0), torch::ones({1}), target);
  const TargetGradients split = gradients->gradients(torch::stack({x, x, 0.5 * x}),
                                                     torch::tensor({0.25f, 0.75f, 0.0f}), target);
  EXPECT_TRUE(torch::allclose(split.weighted_sum, once.weighted_sum, 1e-5, 1e-7));
  EXPECT_TRUE(torch::equal(split.log_probs[0], once.log_probs[0]));
  EXPECT_TRUE(torch::equal(split.log_probs[1], once.log_probs[0]));
  EXPECT_FALSE(torch::allclose(split.log_probs[2], once.log_probs[0]));
}

// Integrated gradients' shape of call on a ten-word sentence (33 points, 11 target tokens); the
// time is gtest's for this test.
TEST(ScriptedExplain, GruGradientsOfATenWordSentenceAt33Points) {
  const std::shared_ptr<const ScriptedModel> model = load(example("gru.pt"));
  const std::unique_ptr<GradientModel> gradients = gradient_model(model);
  ASSERT_TRUE(gradients);
  std::vector<int64_t> source, target;
  for (int digit : {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}) source.push_back(word(digit));
  target.assign(source.rbegin(), source.rend());
  source.push_back(kEos);
  target.push_back(kEos);
  const torch::Tensor x = gradients->embed(source);
  const int n = 32;
  const torch::Tensor alphas = torch::linspace(0.0, 1.0, n + 1);
  torch::Tensor weights = torch::full({n + 1}, 1.0 / n);
  weights[0] = weights[n] = 0.5 / n;
  const TargetGradients g =
      gradients->gradients(alphas.view({-1, 1, 1}) * x.unsqueeze(0), weights, target);
  ASSERT_EQ(g.log_probs.sizes(), (std::vector<int64_t>{n + 1, 11}));
  EXPECT_TRUE(torch::isfinite(g.weighted_sum).all().item<bool>());
  const std::vector<double> at_x = forced_log_probs(*model, x, target);
  for (int64_t t = 0; t < 11; ++t)
    EXPECT_NEAR(g.log_probs[n][t].item<double>(), at_x[static_cast<size_t>(t)], 1e-5);
}

// TorchScript profiles a method's first call and optimises it at the next. A plan profiled with
// autograd on and run under InferenceMode, or optimised under InferenceMode (folding constants
// made there, such as the transformer's positions) and run with autograd, fails ("Inference
// tensors cannot be saved for backward"). Here the model is loaded with autograd on (its probe
// runs so), then decoded and differentiated in turn, as a user translating and asking for
// attributions does.
TEST(ScriptedExplain, GradientsAndDecodingUnderInferenceModeInTurn) {
  const auto model = std::make_shared<const ScriptedModel>(example("transformer.pt"));
  const std::unique_ptr<GradientModel> gradients = gradient_model(model);
  ASSERT_TRUE(gradients);
  const std::vector<int64_t> source = {word(4), word(7), word(1)};
  const std::vector<int64_t> target = {word(7), word(1), word(4), kEos};
  for (int turn = 0; turn < 3; ++turn) {
    {
      c10::InferenceMode inference;
      std::vector<torch::Tensor> state = model->encode(source);
      int64_t previous = model->attributes().bos;
      for (int64_t id : target) {
        state = model->step(state, previous, 3).state;
        previous = id;
      }
    }
    const torch::Tensor x = gradients->embed(source);
    TargetGradients g;
    ASSERT_NO_THROW(g = gradients->gradients(x.unsqueeze(0), torch::ones({1}), target))
        << "turn " << turn;
    EXPECT_GT(g.weighted_sum.abs().sum().item<double>(), 0.0);
  }
}

// gru.pt reads the given row with the same bmm as step() reads its own, so the results are the
// same bits.
TEST(ScriptedExplain, GruStepWithItsOwnAttentionIsItsStep) {
  const std::shared_ptr<const ScriptedModel> model = load(example("gru.pt"));
  c10::InferenceMode inference;
  const std::vector<int64_t> source = {word(9), word(4), word(6), word(2), kEos};
  std::vector<torch::Tensor> state = model->encode(source);
  int64_t previous = model->attributes().bos;
  std::vector<int64_t> output;
  for (int t = 0; t < 5; ++t) {
    const ScriptedStep own = model->step(state, previous, 5);
    const ScriptedStep edited = model->step_with_attention(state, previous, own.attention[0][0], 5);
    EXPECT_TRUE(torch::equal(edited.log_probs, own.log_probs)) << "step " << t;
    EXPECT_TRUE(torch::equal(edited.attention, own.attention)) << "step " << t;
    ASSERT_EQ(edited.state.size(), own.state.size());
    for (size_t i = 0; i < own.state.size(); ++i)
      EXPECT_TRUE(torch::equal(edited.state[i], own.state[i])) << "step " << t;
    previous = own.log_probs.argmax().item<int64_t>();
    output.push_back(previous);
    state = own.state;
  }
  EXPECT_EQ(output, (std::vector<int64_t>{word(2), word(6), word(4), word(9), kEos}));

  // A uniform row is read: the step changes and returns that row.
  const torch::Tensor uniform = torch::full({5}, 0.2f);
  const ScriptedStep own = model->step(model->encode(source), model->attributes().bos, 5);
  const ScriptedStep edited =
      model->step_with_attention(model->encode(source), model->attributes().bos, uniform, 5);
  EXPECT_TRUE(torch::equal(edited.attention[0][0], uniform));
  EXPECT_GT((edited.log_probs - own.log_probs).abs().max().item<float>(), 1e-3f);
}

// A batch of two sentences of different lengths (the shorter padded): each row reads its own
// first weights.
TEST(ScriptedExplain, StepModelEditsEachRowOfABatch) {
  ScriptedStepModel model(load(example("gru.pt")));
  EXPECT_EQ(model.edit_support(), "");
  c10::InferenceMode inference;
  const std::shared_ptr<const DecoderRows> rows =
      model.encode({{word(1), word(2), word(3), kEos}, {word(5), word(6), kEos}});
  const torch::Tensor bos = torch::full({2}, model.bos(), torch::kLong);
  const StepOutput own = model.step(*rows, bos);
  ASSERT_EQ(own.attention.sizes(), (std::vector<int64_t>{2, 4}));
  const StepOutput same = model.step_with_attention(*rows, bos, own.attention);
  EXPECT_TRUE(torch::equal(same.log_probs, own.log_probs));
  EXPECT_TRUE(torch::equal(same.attention, own.attention));

  torch::Tensor rows_given = own.attention.clone();
  rows_given[1] = torch::tensor({0.0f, 0.0f, 1.0f, 0.0f});  // the second row: all on its </s>
  const StepOutput edited = model.step_with_attention(*rows, bos, rows_given);
  EXPECT_TRUE(torch::equal(edited.log_probs[0], own.log_probs[0]));
  EXPECT_TRUE(torch::equal(edited.attention, rows_given));
  EXPECT_GT((edited.log_probs[1] - own.log_probs[1]).abs().max().item<float>(), 1e-3f);
}

// transformer.pt: every head of the last layer reads the edited row. The mean of the heads, the
// row attnscope shows, given back is the model's own step (not every head reading that mean).
TEST(ScriptedExplain, TransformerEditsEveryHeadOfItsLastLayer) {
  ScriptedStepModel model(load(example("transformer.pt")));
  ASSERT_EQ(model.layers(), 2);
  ASSERT_EQ(model.heads(), 4);
  EXPECT_EQ(model.edit_support(), "");
  c10::InferenceMode inference;
  std::shared_ptr<const DecoderRows> rows = model.encode({{word(4), word(7), word(1), word(9)}});
  StepOutput first = model.step(*rows, torch::full({1}, model.bos(), torch::kLong));
  rows = first.next;  // the second step, after "seven" (its translation's first word)
  const torch::Tensor previous = torch::full({1}, word(7), torch::kLong);
  const StepOutput own = model.step(*rows, previous);
  const StepOutput same = model.step_with_attention(*rows, previous, own.attention);
  EXPECT_TRUE(torch::equal(same.log_probs, own.log_probs));
  EXPECT_TRUE(torch::equal(same.heads, own.heads));

  const torch::Tensor uniform = torch::full({1, 4}, 0.25f);
  const StepOutput edited = model.step_with_attention(*rows, previous, uniform);
  ASSERT_EQ(edited.heads.sizes(), (std::vector<int64_t>{1, 8, 4}));
  for (int64_t head = 4; head < 8; ++head)
    EXPECT_TRUE(torch::allclose(edited.heads[0][head], uniform[0])) << "head " << head;
  // The first layer is not edited: it reads what it read before.
  EXPECT_TRUE(torch::allclose(edited.heads[0].narrow(0, 0, 4), own.heads[0].narrow(0, 0, 4)));
  EXPECT_TRUE(torch::allclose(edited.attention, uniform));
  EXPECT_GT((edited.log_probs - own.log_probs).abs().max().item<float>(), 1e-3f);
}

// Through the public API (explanation.h), as the CLI and the app reach the examples.
TEST(ScriptedExplain, AttributionAndEditsOfTheExamplesThroughTheTranslator) {
  const Translator gru(example("gru.pt"));
  EXPECT_EQ(attribution_support(gru, AttributionMethod::kIntegratedGradients), "");
  EXPECT_EQ(edit_support(gru), "");
  AttributionOptions options;
  options.method = AttributionMethod::kIntegratedGradients;
  options.ig_steps = 8;
  const Attribution a = attribute(gru, "nine four six two", options);
  EXPECT_EQ(a.translation.tokens,
            (std::vector<std::string>{"zwei", "sechs", "vier", "neun", "</s>"}));
  ASSERT_EQ(a.values.size(), 5u);
  for (const auto& row : a.values) EXPECT_EQ(row.size(), 5u);
  ASSERT_EQ(a.baseline_log_probabilities.size(), 5u);

  // The model's own row at a step, given back as weights, changes nothing.
  const Translator transformer(example("transformer.pt"));
  EXPECT_EQ(edit_support(transformer), "");
  const Translation own = transformer.translate("4 7 1 9");
  WhatIf what_if;
  AttentionEdit edit;
  edit.step = 1;
  edit.kind = AttentionEdit::Kind::kWeights;
  edit.weights = own.attention[1];
  what_if.edits.push_back(edit);
  const EditedTranslation same = translate_with_edits(transformer, "4 7 1 9", what_if);
  EXPECT_EQ(same.translation.tokens, own.tokens);
  EXPECT_EQ(same.translation.probabilities, own.probabilities);
}

std::string missing_gradients(const std::string& path) {
  return "model '" + path +
         "': has no methods embed() and encode_embedded(), which gradient attributions (grad, "
         "gradxinput, ig) need; leave one out (loo) works without them (see "
         "docs/model-protocol.md)";
}

std::string missing_edit(const std::string& path) {
  return "model '" + path +
         "': has no method step_with_attention(), so its attention cannot be edited (see "
         "docs/model-protocol.md)";
}

TEST(ScriptedExplain, AModuleWithoutTheOptionalMethodsTranslatesAndSaysWhatIsMissing) {
  const std::string path = write_scripted_module({}, "without_optional");
  const std::shared_ptr<const ScriptedModel> model = load(path);
  EXPECT_FALSE(model->has_gradient_methods());
  EXPECT_FALSE(model->has_edit_method());
  EXPECT_EQ(model->gradient_methods_missing(), missing_gradients(path));
  EXPECT_EQ(model->edit_method_missing(), missing_edit(path));

  ScriptedStepModel step_model(model);
  EXPECT_EQ(step_model.edit_support(), missing_edit(path));
  std::string why_not;
  EXPECT_EQ(gradient_model_of(step_model, &why_not), nullptr);
  EXPECT_EQ(why_not, missing_gradients(path));
  {
    c10::InferenceMode inference;
    const std::shared_ptr<const DecoderRows> rows = step_model.encode({{3, 4, 1}});
    const torch::Tensor bos = torch::full({1}, step_model.bos(), torch::kLong);
    EXPECT_THROW(step_model.step_with_attention(*rows, bos, torch::full({1, 3}, 1.0f / 3)),
                 std::logic_error);
  }

  const Translator translator(path);
  EXPECT_EQ(translator.translate("a b c").tokens,
            (std::vector<std::string>{"a", "b", "c", "</s>"}));
  EXPECT_EQ(edit_support(translator), missing_edit(path));
  EXPECT_EQ(attribution_support(translator, AttributionMethod::kIntegratedGradients),
            missing_gradients(path));
  EXPECT_EQ(attribution_support(translator, AttributionMethod::kLeaveOneOut), "");
}

// The toy module (tests/engine/scripted_modules.h) with `methods` added, saved as `name`.
std::string toy_with(const std::string& methods, const std::string& name) {
  torch::jit::Module module = torch::jit::load(write_scripted_module({}, name + "_base"));
  module.define(methods);
  const std::string path = testing::temporary_folder() + "/" + name + ".pt";
  module.save(path);
  return path;
}

// Optional methods that break the protocol on the loading probe ([<unk>, </s>]) leave the module
// translating, with the problem as the note.
TEST(ScriptedExplain, BrokenOptionalMethodsAreNotesNotLoadErrors) {
  const std::string path = toy_with(
      "def embed(self, src: Tensor) -> Tensor:\n"
      "    return src.float()\n"
      "def encode_embedded(self, emb: Tensor) -> List[Tensor]:\n"
      "    return self.encode(emb.long())\n"
      "def step_with_attention(self, state: List[Tensor], prev: Tensor, attention: Tensor)"
      " -> Tuple[Tensor, Tensor, List[Tensor]]:\n"
      "    return self.step(state, prev)\n",
      "broken_optional");
  const std::shared_ptr<const ScriptedModel> model = load(path);
  EXPECT_EQ(model->gradient_methods_missing(),
            "model '" + path +
                "': embed() returned embeddings of shape [2] for a source of 2 tokens; expected "
                "[2, E], so gradient attributions (grad, gradxinput, ig) are off; leave one out "
                "(loo) works without them");
  const std::string& edit = model->edit_method_missing();
  EXPECT_EQ(edit.find("model '" + path +
                      "': step_with_attention() returned attention that is not the row it was "
                      "given (one weight is 0.12"),
            0u)
      << edit;
  EXPECT_NE(edit.find(" off), so its attention cannot be edited"), std::string::npos) << edit;
  EXPECT_EQ(Translator(path).translate("a b").tokens, (std::vector<std::string>{"a", "b", "</s>"}));
}

// embed() and encode_embedded() of the right shapes whose state does not depend on the
// embeddings by autograd: gradients() says so instead of giving zeros.
TEST(ScriptedExplain, EmbeddingsOutsideTheGraphAreAnError) {
  const std::string path = toy_with(
      "def embed(self, src: Tensor) -> Tensor:\n"
      "    return src.float().unsqueeze(1)\n"
      "def encode_embedded(self, emb: Tensor) -> List[Tensor]:\n"
      "    return self.encode(emb.squeeze(1).long())\n",
      "detached_embeddings");
  const std::shared_ptr<const ScriptedModel> model = load(path);
  ASSERT_TRUE(model->has_gradient_methods()) << model->gradient_methods_missing();
  const std::unique_ptr<GradientModel> gradients = gradient_model(model);
  ASSERT_TRUE(gradients);
  const torch::Tensor x = gradients->embed({3, 4, 1});
  try {
    gradients->gradients(x.unsqueeze(0), torch::ones({1}), {3, 4, 1});
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "model '" + path +
                  "': its log-probabilities after encode_embedded() do not depend on the "
                  "embeddings by autograd (no detach(), .data or torch.no_grad() inside it; see "
                  "docs/model-protocol.md)");
  }
}

}  // namespace
}  // namespace attnscope
