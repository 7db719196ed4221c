// TorchScript models (docs/model-protocol.md) through every command that takes --model: the
// real attnscope-cli on protocol modules the test builds in C++ (tests/engine/scripted_modules).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_process.h"
#include "engine/scripted_modules.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;

TEST(CliScriptedModel, TranslateEvalAndExport) {
  using testing::write_scripted_module;
  const std::string copy = write_scripted_module({}, "cli_copy");
  const std::string heads = write_scripted_module({2, 4}, "cli_heads");

  const Outcome plain = run_cli({"translate", "--model", copy, "--threads", "1", "a b c", "d"});
  expect_success(plain);
  EXPECT_EQ(plain.out_lines(), (std::vector<std::string>{"a b c", "d"}));
  const Outcome beam = run_cli({"translate", "--model", copy, "--beam", "5", "e c"});
  expect_success(beam);
  EXPECT_EQ(beam.out_lines(), (std::vector<std::string>{"e c"}));

  const Outcome json = run_cli({"translate", "--model", heads, "--json", "a b"});
  expect_success(json);
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["tokens"], (std::vector<std::string>{"a", "b", "</s>"}));
  EXPECT_EQ(j["layers"], 2);
  EXPECT_EQ(j["heads"], 4);
  ASSERT_EQ(j["head_attention"].size(), 3u);  // steps
  EXPECT_EQ(j["head_attention"][0].size(), 2u);
  EXPECT_EQ(j["head_attention"][0][1].size(), 4u);
  EXPECT_EQ(j["head_attention"][0][1][3].size(), 3u);  // source tokens

  const std::string folder = testing::temporary_folder();
  const std::string src = folder + "/scripted.src";
  std::ofstream(src) << "a b c d e\nb c d e a\n";  // 4-grams, so BLEU is defined
  const Outcome eval = run_cli({"eval", "--model", copy, "--src", src, "--ref", src});
  expect_success(eval);
  EXPECT_NE(eval.out.find("BLEU = 100.00"), std::string::npos) << eval;
  EXPECT_NE(eval.out.find("cli_copy"), std::string::npos) << eval;

  if (ATTNSCOPE_CLI_HAS_UI) {
    const std::string csv = folder + "/heads.csv";
    expect_success(run_cli({"export", "--model", heads, "--head", "all", "--out", csv, "a b"}));
    EXPECT_NE(testing::read_bytes(csv).find("layer 2 · head 4"), std::string::npos);
    expect_clean_error(run_cli({"export", "--model", heads, "--layer", "3", "--out", csv, "a b"}),
                       {"--layer 3: model 'cli_heads' has 2 layers"});
    expect_clean_error(run_cli({"export", "--model", copy, "--head", "2", "--out", csv, "a b"}),
                       {"has one attention matrix"});
  }
}

// The toy copies its source, so an unknown source word comes out as "<unk>" attending to it.
TEST(CliScriptedModel, UnknownWordsAreCopiedOrKept) {
  testing::ScriptedModuleSpec spec;
  spec.tokenizer = "attnscope";
  const std::string toy = testing::write_scripted_module(spec, "cli_unk");

  const Outcome copied = run_cli({"translate", "--model", toy, "--json", "a Zebra b"});
  expect_success(copied);
  const auto j = nlohmann::json::parse(copied.out);
  EXPECT_EQ(j["tokens"], (std::vector<std::string>{"a", "Zebra", "b", "</s>"}));
  EXPECT_EQ(j["copied"], (std::vector<int>{1}));
  EXPECT_EQ(j["copied_from"], (std::vector<int>{1}));
  EXPECT_TRUE(j["kept_unknown"].empty());
  // A lowercase unknown word is English, not a name: kept, and the JSON says why.
  const Outcome common = run_cli({"translate", "--model", toy, "--json", "a zebra b"});
  expect_success(common);
  const auto k = nlohmann::json::parse(common.out)["kept_unknown"];
  ASSERT_EQ(k.size(), 1u) << common;
  EXPECT_EQ(k[0]["target"], 1);
  EXPECT_EQ(k[0]["reason"], "only_lowercase_words");
  EXPECT_EQ(k[0]["source"], 1);
  const Outcome kept = run_cli({"translate", "--model", toy, "--unk", "keep", "a Zebra b"});
  expect_success(kept);
  EXPECT_EQ(kept.out_lines(), (std::vector<std::string>{"a <unk> b"}));
  expect_clean_error(run_cli({"translate", "--model", toy, "--unk", "guess", "a"}),
                     {"--unk", "guess"});

  // eval gives both BLEUs; the first line is --unk's. Copied words compare lowercased, as the
  // model reads its text.
  const std::string folder = testing::temporary_folder();
  const std::string src = cli_test::write_bytes(folder, "unk.src", "a Zebra b c d\nb c d e a\n");
  const std::string ref = cli_test::write_bytes(folder, "unk.ref", "a zebra b c d\nb c d e a\n");
  const Outcome eval = run_cli({"eval", "--model", toy, "--src", src, "--ref", ref});
  expect_success(eval);
  const auto lines = eval.out_lines();
  ASSERT_EQ(lines.size(), 3u) << eval;
  EXPECT_EQ(lines[0].rfind("BLEU = 100.00", 0), 0u) << eval;
  EXPECT_EQ(lines[1], "--unk copy: BLEU 100.00, 0 of 2 sentences with <unk> (0 <unk> in all)");
  EXPECT_EQ(lines[2].rfind("--unk keep: BLEU ", 0), 0u) << eval;
  EXPECT_NE(lines[2].find(", 1 of 2 sentences with <unk> (1 <unk> in all)"), std::string::npos);
  const Outcome eval_keep =
      run_cli({"eval", "--model", toy, "--src", src, "--ref", ref, "--unk", "keep"});
  expect_success(eval_keep);
  EXPECT_EQ(eval_keep.out_lines()[0].rfind("BLEU = 100.00", 0), std::string::npos) << eval_keep;

  // Source words left in the output, against a training target text that has only a, b and c:
  // copy writes "a Zebra b c d" and "b c d e a" (d, d, e leaked: 3 of 10 words; Zebra is a
  // name), keep "a <unk> b c d" (d) and the second alike.
  const std::string train = cli_test::write_bytes(folder, "train.tgt", "a b c\nc b a\n");
  const Outcome leak = run_cli({"eval", "--model", toy, "--src", src, "--ref", ref, "--metrics",
                                "--train-tgt", train, "--json"});
  expect_success(leak);
  const auto measured = nlohmann::json::parse(leak.out)["models"][0]["unknown_words"];
  EXPECT_EQ(measured["copy"]["leak"]["leaked_words"], 3) << leak;
  EXPECT_EQ(measured["copy"]["leak"]["output_words"], 10) << leak;
  EXPECT_EQ(measured["copy"]["leak"]["sentences_with_leak"], 2) << leak;
  EXPECT_EQ(measured["keep"]["leak"]["leaked_words"], 3) << leak;
  const Outcome unmeasured =
      run_cli({"eval", "--model", toy, "--src", src, "--ref", ref, "--metrics"});
  expect_success(unmeasured);
  EXPECT_NE(unmeasured.out.find("give --train-tgt FILE"), std::string::npos) << unmeasured;
  expect_clean_error(run_cli({"eval", "--model", toy, "--src", src, "--ref", ref, "--metrics",
                              "--train-tgt", folder + "/missing.de"}),
                     {folder + "/missing.de"});
  const std::string blank = cli_test::write_bytes(folder, "blank.tgt", "\n\n");
  expect_clean_error(run_cli({"eval", "--model", toy, "--src", src, "--ref", ref, "--metrics",
                              "--train-tgt", blank}),
                     {"--train-tgt", "holds no words"});
  expect_clean_error(
      run_cli({"eval", "--model", toy, "--src", src, "--ref", ref, "--copy-threshold", "1.5"}),
      {"--copy-threshold"});
}

// eval measures several models side by side: BLEU by source length and what their attention
// does, as text and as JSON. The toy's attention is known, so its measures are too.
TEST(CliScriptedModel, EvalMeasuresSeveralModelsByLengthAndAttention) {
  const std::string copy = testing::write_scripted_module({}, "cli_eval_copy");
  const std::string heads = testing::write_scripted_module({2, 4}, "cli_eval_heads");
  const std::string folder = testing::temporary_folder();
  // Two 5-word sentences (bucket 1-10) and one of 12 words (11-20).
  const std::string src =
      cli_test::write_bytes(folder, "len.src", "a b c d e\nb c d e a\na b c d e a b c d e a b\n");

  const Outcome text = run_cli({"eval", "--model", copy, "--model", heads, "--src", src, "--ref",
                                src, "--by-length", "--metrics"});
  expect_success(text);
  const auto lines = text.out_lines();
  ASSERT_GE(lines.size(), 12u) << text;
  EXPECT_EQ(lines[0].rfind("BLEU = 100.00", 0), 0u) << text;  // each model's usual three lines
  EXPECT_NE(lines[0].find("cli_eval_copy"), std::string::npos) << text;
  EXPECT_NE(lines[3].find("cli_eval_heads"), std::string::npos) << text;
  EXPECT_NE(text.out.find("1\u201310 (2)"), std::string::npos) << text;
  EXPECT_NE(text.out.find("11\u201320 (1)"), std::string::npos) << text;
  EXPECT_NE(text.out.find("diagonality"), std::string::npos) << text;

  const Outcome json =
      run_cli({"eval", "--model", copy, "--model", heads, "--src", src, "--ref", src, "--json"});
  expect_success(json);
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["models"].size(), 2u);
  const auto& toy = j["models"][0];
  EXPECT_EQ(toy["model"], "cli_eval_copy");
  EXPECT_EQ(toy["sentences"], 3);
  EXPECT_DOUBLE_EQ(toy["bleu"]["bleu"].get<double>(), 100.0);
  ASSERT_EQ(toy["by_length"].size(), 4u);
  EXPECT_EQ(toy["by_length"][0]["sentences"], 2);
  EXPECT_EQ(toy["by_length"][1]["sentences"], 1);
  EXPECT_EQ(toy["by_length"][2]["sentences"], 0);
  EXPECT_TRUE(toy["by_length"][3]["last"].is_null());
  // The toy peaks on the diagonal and emits as many tokens as it reads (with "</s>").
  const auto& metrics = toy["metrics"];
  EXPECT_NEAR(metrics["diagonality"].get<double>(), 0.0, 1e-9);
  // "</s>" is source token n - 1; steps 0..n-2 count as sink, each sentence its own n.
  double sink = 0;
  int steps = 0;
  for (int n : {6, 6, 13})
    for (int t = 0; t + 1 < n; ++t, ++steps) sink += testing::toy_attention(t, n, 0.5f)[n - 1];
  EXPECT_NEAR(metrics["eos_sink"].get<double>(), sink / steps, 1e-5);
  EXPECT_GT(metrics["entropy"].get<double>(), 0.0);
  // The sharper heads average into a different matrix: the measures tell the models apart.
  EXPECT_NE(j["models"][1]["metrics"]["entropy"], metrics["entropy"]);

  // --plot draws BLEU by length; a path that cannot take a picture fails before decoding.
  const std::string png = folder + "/by-length.png";
  const std::vector<std::string> plot = {"eval", "--model", copy, "--model", heads, "--src",
                                         src,    "--ref",   src,  "--plot",  png};
  if (ATTNSCOPE_CLI_HAS_UI) {
    expect_success(run_cli(plot));
    EXPECT_EQ(testing::read_bytes(png).substr(0, 8), "\x89PNG\r\n\x1a\n");
    expect_clean_error(run_cli({"eval", "--model", copy, "--src", src, "--ref", src, "--plot",
                                folder + "/by-length.csv"}),
                       {"--plot", "by-length.csv", "unknown picture type"});
    expect_clean_error(run_cli({"eval", "--model", copy, "--src", src, "--ref", src, "--plot",
                                folder + "/missing/plot.png"}),
                       {"folder", "does not exist"});
  } else {
    expect_clean_error(run_cli(plot), {"--plot needs the desktop build"});
  }
}

// align: the toy attends most to the source word it copies, so its links are the diagonal.
TEST(CliScriptedModel, AlignPrintsPharaohLinksAndScoresThemAgainstAGoldSet) {
  const std::string toy = testing::write_scripted_module({}, "cli_align");
  const std::string folder = testing::temporary_folder();
  const std::string src = cli_test::write_bytes(folder, "a.src", "a b c\nb c d e\n");
  const std::string tgt = cli_test::write_bytes(folder, "a.tgt", "a b c\nb c d e\n");
  const Outcome links = run_cli({"align", "--model", toy, "--src", src, "--tgt", tgt});
  expect_success(links);
  EXPECT_EQ(links.out_lines(), (std::vector<std::string>{"0-0 1-1 2-2", "0-0 1-1 2-2 3-3"}));

  // Gold: sure 0-0 2-2 and possible 1?1 0?1 in pair 1; sure 0-0 1-2 in pair 2 (1-based: +1).
  // A = 7 links, S = 4; A ∩ S = 3 (0-0 and 2-2, then 0-0); A ∩ P = 4 (also 1-1 of pair 1).
  const std::string gold = cli_test::write_bytes(folder, "a.gold", "1-1 3-3 2?2 1p2\n1-1 2-3\n");
  const Outcome scored = run_cli({"align", "--model", toy, "--src", src, "--tgt", tgt, "--gold",
                                  gold, "--one-based", "--json"});
  expect_success(scored);
  const auto j = nlohmann::json::parse(scored.out);
  EXPECT_EQ(j["predicted_links"], 7);
  EXPECT_EQ(j["sure_links"], 4);
  EXPECT_DOUBLE_EQ(j["precision"].get<double>(), 4.0 / 7);
  EXPECT_DOUBLE_EQ(j["recall"].get<double>(), 3.0 / 4);
  EXPECT_DOUBLE_EQ(j["aer"].get<double>(), 1.0 - (3.0 + 4.0) / (7 + 4));
  const Outcome text =
      run_cli({"align", "--model", toy, "--src", src, "--tgt", tgt, "--gold", gold, "--one-based"});
  expect_success(text);
  EXPECT_EQ(text.out.rfind("precision 0.5714  recall 0.7500  AER 0.3636", 0), 0u) << text;

  expect_clean_error(run_cli({"align", "--model", toy, "--src", src, "--tgt", tgt, "--gold",
                              gold}),  // 0-based: index 3 is out of range in pair 1
                     {"'" + gold + "' line 1", "out of range", "--one-based"});
  const std::string short_tgt = cli_test::write_bytes(folder, "short.tgt", "a b c\n");
  expect_clean_error(run_cli({"align", "--model", toy, "--src", src, "--tgt", short_tgt}),
                     {"'" + src + "' has 2 lines but '" + short_tgt + "' has 1"});
  expect_clean_error(
      run_cli({"align", "--model", toy, "--src", src, "--tgt", tgt, "--method", "threshold:2"}),
      {"alignment method 'threshold:2'"});
}

TEST(CliScriptedModel, BrokenModulesGiveOneLine) {
  testing::ScriptedModuleSpec broken;
  broken.break_step = "        attention = attention[:-1]\n";
  const std::string path = testing::write_scripted_module(broken, "cli_broken");
  expect_clean_error(run_cli({"translate", "--model", path, "a b"}),
                     {"model '" + path + "': step() returned attention of shape [1]"});
  const std::string junk = testing::temporary_folder() + "/junk.pt";
  std::ofstream(junk, std::ios::binary) << "PK\x03\x04 and then nothing";
  expect_clean_error(run_cli({"translate", "--model", junk, "a b"}),
                     {"model '" + junk + "': is not a TorchScript file"});
}

}  // namespace
}  // namespace attnscope
