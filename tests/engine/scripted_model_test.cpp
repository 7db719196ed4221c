// TorchScript models following docs/model-protocol.md, decoded by the engine's own searches.
#include "model/scripted_model.h"

#include <attnscope/model_catalog.h>
#include <attnscope/translator.h>
#include <attnscope/word_view.h>
#include <gtest/gtest.h>
#include <torch/script.h>

#include <fstream>

#include "engine/scripted_modules.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using testing::ScriptedModuleSpec;
using testing::toy_attention;
using testing::write_scripted_module;

void expect_rows_near(const std::vector<std::vector<float>>& actual,
                      const std::vector<std::vector<float>>& expected, float tolerance = 1e-5f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t r = 0; r < actual.size(); ++r) {
    ASSERT_EQ(actual[r].size(), expected[r].size()) << "row " << r;
    for (size_t c = 0; c < actual[r].size(); ++c)
      EXPECT_NEAR(actual[r][c], expected[r][c], tolerance) << "row " << r << " column " << c;
  }
}

// The plain loop a user would write over the module, without attnscope: greedy ids and the
// attention rows (the mean of the last layer's heads).
struct PlainGreedy {
  std::vector<int64_t> ids;
  std::vector<std::vector<float>> attention;
};

PlainGreedy plain_greedy(const std::string& path, const std::vector<int64_t>& source) {
  torch::jit::Module module = torch::jit::load(path);
  torch::NoGradGuard no_grad;
  const int64_t bos = module.attr("bos_id").toInt(), eos = module.attr("eos_id").toInt();
  c10::IValue state = module.get_method("encode")({torch::tensor(source, torch::kLong)});
  int64_t previous = bos;
  PlainGreedy result;
  for (size_t t = 0; t < 2 * source.size() + 10; ++t) {
    auto out =
        module.get_method("step")({state, torch::full({1}, previous, torch::kLong)}).toTuple();
    const int64_t id = out->elements()[0].toTensor().argmax().item<int64_t>();
    torch::Tensor attention = out->elements()[1].toTensor();
    if (attention.dim() == 3) attention = attention[-1].mean(0);
    if (attention.dim() == 2) attention = attention.mean(0);
    attention = attention.contiguous();
    result.ids.push_back(id);
    result.attention.emplace_back(attention.data_ptr<float>(),
                                  attention.data_ptr<float>() + attention.numel());
    state = out->elements()[2];
    previous = id;
    if (id == eos) break;
  }
  return result;
}

TEST(ScriptedModel, CopiesItsSourceWithTheModulesAttention) {
  const Translator translator(write_scripted_module({}, "copy"));
  const Translation t = translator.translate("a b c");
  EXPECT_EQ(t.source.tokens, (std::vector<std::string>{"a", "b", "c", "</s>"}));
  EXPECT_EQ(t.tokens, (std::vector<std::string>{"a", "b", "c", "</s>"}));
  EXPECT_EQ(t.text(), "a b c");
  std::vector<std::vector<float>> expected;
  for (int step = 0; step < 4; ++step) expected.push_back(toy_attention(step, 4, 0.5f));
  expect_rows_near(t.attention, expected);
  EXPECT_TRUE(t.head_attention.empty());
  const float p = std::exp(5.0f) / (std::exp(5.0f) + 7.0f);
  for (float probability : t.probabilities) EXPECT_NEAR(probability, p, 1e-5f);
}

TEST(ScriptedModel, GreedyEqualsAPlainLoopOverTheModule) {
  for (const ScriptedModuleSpec& spec : {ScriptedModuleSpec{}, ScriptedModuleSpec{2, 4}}) {
    const std::string path = write_scripted_module(spec, "plain" + std::to_string(spec.layers));
    const Translator translator(path);
    const PlainGreedy plain = plain_greedy(path, {3, 5, 4, 7, 1});  // a c b e </s>
    const Translation t = translator.translate("a c b e");
    std::vector<std::string> expected_tokens;
    for (int64_t id : plain.ids) expected_tokens.push_back(spec.vocabulary[id]);
    EXPECT_EQ(t.tokens, expected_tokens);
    expect_rows_near(t.attention, plain.attention, 0.0f);
  }
}

TEST(ScriptedModel, EveryLayerAndHeadOfAMultiHeadModel) {
  const Translator translator(write_scripted_module({2, 4}, "heads"));
  EXPECT_EQ(translator.info().attention_layers, 2);
  EXPECT_EQ(translator.info().attention_heads, 4);
  const Translation t = translator.translate("a b");
  ASSERT_EQ(t.head_attention.size(), t.tokens.size());
  EXPECT_EQ(t.layers(), 2);
  EXPECT_EQ(t.heads(), 4);
  for (int step = 0; step < static_cast<int>(t.tokens.size()); ++step) {
    std::vector<float> mean(3, 0.0f);
    for (int head = 0; head < 4; ++head) {
      const auto expected = toy_attention(step, 3, 0.5f * static_cast<float>(4 + head + 1));
      for (int s = 0; s < 3; ++s) mean[s] += expected[s] / 4.0f;
    }
    expect_rows_near({t.attention[step]}, {mean});  // the default: last layer, heads averaged
  }
  const auto layer0_head2 = t.attention_for({0, 2});
  const auto layer1_mean = t.attention_for({1, -1});
  for (int step = 0; step < static_cast<int>(t.tokens.size()); ++step)
    expect_rows_near({layer0_head2[step]}, {toy_attention(step, 3, 1.5f)});
  expect_rows_near(layer1_mean, t.attention);
}

TEST(ScriptedModel, BeamSessionAndForcedDecodingAgreeWithGreedy) {
  const Translator translator(write_scripted_module({1, 2}, "agree"));
  const Translation greedy = translator.translate("d a c");
  TranslationOptions beam;
  beam.beam_size = 5;
  const std::vector<Translation> nbest = translator.translate_nbest("d a c", beam);
  ASSERT_GE(nbest.size(), 2u);
  EXPECT_EQ(nbest.front().tokens, greedy.tokens);
  expect_rows_near(nbest.front().attention, greedy.attention);

  auto session = translator.start("d a c", 3);
  while (!session->finished()) session->step();
  const Translation stepped = session->translation();
  EXPECT_EQ(stepped.tokens, greedy.tokens);
  expect_rows_near(stepped.attention, greedy.attention);
  ASSERT_EQ(stepped.head_attention.size(), greedy.head_attention.size());
  EXPECT_EQ(session->steps()[0].candidates.size(), 3u);
  EXPECT_EQ(session->steps()[0].heads.layers, 1);

  session->rewind(3);
  EXPECT_EQ(session->force("b").token, "b");
  EXPECT_TRUE(session->steps().back().forced);
  EXPECT_EQ(session->force("nonsense").token, "<unk>");

  const Translation forced = translator.force_decode("d a c", "d a c");
  EXPECT_EQ(forced.tokens, greedy.tokens);
  expect_rows_near(forced.attention, greedy.attention);
}

TEST(ScriptedModel, SubwordPiecesOfTypedWordsAndTheirWordView) {
  ScriptedModuleSpec continuation;
  continuation.vocabulary = {"<s>", "</s>", "<unk>", "ab@@", "c", "ab", "d@@", "e"};
  continuation.subword_marker = "@@";
  const Translator at(write_scripted_module(continuation, "continuation"));
  const Translation t = at.translate("abc ab de");
  EXPECT_EQ(t.source.tokens, (std::vector<std::string>{"ab@@", "c", "ab", "d@@", "e", "</s>"}));
  EXPECT_EQ(t.text(), "abc ab de");

  const WordView view =
      word_view(t.source.tokens, t.tokens, t.attention, t.subword_marker, t.end_token);
  EXPECT_EQ(view.source_words, (std::vector<std::string>{"abc", "ab", "de", "</s>"}));
  EXPECT_EQ(view.target_words, view.source_words);
  ASSERT_EQ(view.weights.size(), 4u);
  for (const auto& row : view.weights) {
    float total = 0.0f;
    for (float value : row) total += value;
    EXPECT_NEAR(total, 1.0f, 1e-5f);
  }
  // "abc" (pieces 0, 1) attended from "abc" (rows 0, 1): the mean of the rows' summed columns.
  const float expected =
      (t.attention[0][0] + t.attention[0][1] + t.attention[1][0] + t.attention[1][1]) / 2.0f;
  EXPECT_NEAR(view.weights[0][0], expected, 1e-6f);

  ScriptedModuleSpec word_start;
  word_start.vocabulary = {"<s>", "</s>", "<unk>", "\u2581ab", "c", "\u2581d", "e"};
  word_start.subword_marker = "\u2581";
  const Translator sp(write_scripted_module(word_start, "word_start"));
  EXPECT_EQ(sp.prepare_source("abc de x").tokens,
            (std::vector<std::string>{"\u2581ab", "c", "\u2581d", "e", "\u2581x", "</s>"}));
  EXPECT_EQ(sp.prepare_source("abc de x").unknown_words, (std::vector<std::string>{"\u2581x"}));
  EXPECT_EQ(sp.translate("abc de").text(), "abc de");
}

TEST(ScriptedModel, ModelInfoWithoutDecoding) {
  const std::string path = write_scripted_module({2, 3}, "described");
  const ModelInfo info = read_model_info(path);
  EXPECT_EQ(info.format, "torchscript");
  EXPECT_EQ(info.name, "described");
  EXPECT_EQ(info.attention_layers, 2);
  EXPECT_EQ(info.attention_heads, 3);
  EXPECT_EQ(info.config.target_vocab, 8);
  EXPECT_GT(info.file_bytes, 0);
  EXPECT_TRUE(info.examples.empty());  // the optional attribute is absent

  ScriptedModuleSpec offering;
  offering.source_language = "de";
  offering.examples = {"a b c", "d e"};
  const ModelInfo offered = read_model_info(write_scripted_module(offering, "offering"));
  EXPECT_EQ(offered.config.source_language, "de");
  EXPECT_EQ(offered.examples, offering.examples);
}

void expect_load_error(const std::string& path, const std::string& problem) {
  try {
    const Translator translator(path);
    ADD_FAILURE() << path << " loaded; expected: " << problem;
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("model '" + path + "': ", 0), 0u) << message;
    EXPECT_NE(message.find(problem), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(ScriptedModel, BrokenModulesGiveOneLineNamingTheFileAndTheProblem) {
  struct Case {
    std::string name;
    ScriptedModuleSpec spec;
    std::string problem;
  };
  std::vector<Case> cases;
  auto add = [&](std::string name, std::string problem, auto change) {
    ScriptedModuleSpec spec;
    change(spec);
    cases.push_back({std::move(name), spec, std::move(problem)});
  };
  add("no_step", "has no method step()", [](auto& s) { s.with_step = false; });
  add("no_vocab", "has no attribute 'tgt_vocab'",
      [](auto& s) { s.without_attributes = {"tgt_vocab"}; });
  add("short_attention", "step() returned attention of shape [1] for a source of 2 tokens",
      [](auto& s) { s.break_step = "        attention = attention[:-1]\n"; });
  add("nan", "NaN or +inf log-probabilities",
      [](auto& s) { s.break_step = "        log_probs = log_probs * float('nan')\n"; });
  add("rows", "attention rows that do not sum to 1",
      [](auto& s) { s.break_step = "        attention = attention * 1.5\n"; });
  add("logits", "probabilities sum to",
      [](auto& s) { s.break_step = "        log_probs = scores\n"; });
  add("negative", "a negative attention weight", [](auto& s) {
    s.break_step =
        "        attention = torch.zeros([n])\n"
        "        attention[0] = 2.0\n"
        "        attention[1] = -1.0\n";
  });
  add("unk", "'unk_id' is 99, outside tgt_vocab", [](auto& s) { s.unk = 99; });
  add("raises", "step() failed:", [](auto& s) {
    s.break_step = "        log_probs = log_probs + torch.zeros([3, 3])\n";
  });
  add("protocol", "protocol version 2", [](auto& s) { s.protocol = 2; });
  add("tokenizer", "attribute 'tokenizer' is 'bpe'", [](auto& s) { s.tokenizer = "bpe"; });
  add("marker", "attribute 'subword_marker' is '##'", [](auto& s) { s.subword_marker = "##"; });
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    expect_load_error(write_scripted_module(c.spec, c.name), c.problem);
  }

  const std::string folder = testing::temporary_folder();
  const std::string junk = folder + "/junk.pt";
  std::ofstream(junk, std::ios::binary) << "PK\x03\x04 not really a zip archive";
  expect_load_error(junk, "is a damaged or cut-off ZIP archive");
  const std::string whole = testing::read_bytes(write_scripted_module({}, "whole"));
  const std::string truncated = folder + "/truncated.pt";
  std::ofstream(truncated, std::ios::binary) << whole.substr(0, whole.size() / 2);
  expect_load_error(truncated, "ZIP archive");
  // In the user's words, not the names of PyTorch's classes.
  for (const std::string& file : {junk, truncated})
    EXPECT_EQ(testing::model_load_error(file).find("PytorchStreamReader"), std::string::npos)
        << testing::model_load_error(file);
}

// PyTorch's own checks end their messages with a plea to its developers; the user is spared it.
// (Loading a zip that makes PyTorch say so leaks inside libtorch, which the sanitized run
// reports, so the message is given here as PyTorch wrote it.)
TEST(ScriptedModel, PyTorchsPleaIsCutFromItsMessages) {
  EXPECT_EQ(short_message("Expected hasRecord(\"version\") to be true, but got false.  (Could "
                          "this error message be improved?  If so, please report an "
                          "enhancement request to PyTorch.)"),
            "Expected hasRecord(\"version\") to be true, but got false.");
  EXPECT_EQ(short_message("Traceback, line 1\nRuntimeError: shape mismatch\n"),
            "RuntimeError: shape mismatch");
}

TEST(ScriptedModel, AModuleThatBreaksMidSentenceFailsThatSentenceOnly) {
  ScriptedModuleSpec spec;
  spec.break_step =
      "        if int(t.item()) >= 2:\n"
      "            attention = attention * 1.5\n";
  const std::string path = write_scripted_module(spec, "later");
  const Translator translator(path);  // the probe step is fine
  EXPECT_THROW(translator.translate("a b c"), std::runtime_error);
  EXPECT_EQ(translator.translate("a").tokens, (std::vector<std::string>{"a", "</s>"}));
}

}  // namespace
}  // namespace attnscope
