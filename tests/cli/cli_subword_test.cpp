// attnscope-cli with a subword model: train --subwords, then translate, eval and --resume with
// it; bad piece counts and a model file without its SentencePiece model give one line.
#include <attnscope/model_catalog.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;

const std::string kWordStart = "\u2581";

class CliSubwords : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = testing::temporary_folder();
    train_ = testing::write_syllable_corpus(folder_, "train", 400, 21);
    valid_ = testing::write_syllable_corpus(folder_, "valid", 20, 22);
  }
  std::vector<std::string> train_args(const std::string& out, const std::string& pieces,
                                      const std::string& epochs) const {
    return {"train",
            "--src",
            train_ + ".src",
            "--tgt",
            train_ + ".tgt",
            "--val-src",
            valid_ + ".src",
            "--val-tgt",
            valid_ + ".tgt",
            "--score",
            "dot",
            "--emb",
            "8",
            "--hidden",
            "8",
            "--threads",
            "1",
            "--max-batches",
            "3",
            "--epochs",
            epochs,
            "--subwords",
            pieces,
            "--out",
            out};
  }
  std::string folder_, train_, valid_;
};

TEST_F(CliSubwords, TrainTranslateEvalAndResume) {
  const std::string out = folder_ + "/pieces.attnmodel";
  auto first = train_args(out, "100", "1");
  first.insert(first.end(), {"--min-freq", "3"});
  const Outcome trained = run_cli(first);
  expect_success(trained);
  EXPECT_NE(trained.err.find("note: --min-freq does not apply to a subword model"),
            std::string::npos)
      << trained;
  EXPECT_NE(trained.err.find("learned 100 en and 100 de subword pieces"), std::string::npos)
      << trained;

  const Outcome translated =
      run_cli({"translate", "--json", "--model", out, "Kalomi neru tavirusomi."});
  expect_success(translated);
  const nlohmann::json json = nlohmann::json::parse(translated.out);
  const auto source = json["source_tokens"].get<std::vector<std::string>>();
  ASSERT_GE(source.size(), 5u);
  EXPECT_EQ(source.front().rfind(kWordStart + "kal", 0), 0u) << translated.out;  // pieces
  EXPECT_EQ(source.back(), "</s>");
  // The translation line is words: pieces joined, no marker left.
  EXPECT_EQ(json["translation"].get<std::string>().find(kWordStart), std::string::npos);
  const Outcome plain = run_cli({"translate", "--model", out, "Kalomi neru tavirusomi."});
  expect_success(plain);
  EXPECT_EQ(plain.out, json["translation"].get<std::string>() + "\n");

  const Outcome bleu =
      run_cli({"eval", "--model", out, "--src", valid_ + ".src", "--ref", valid_ + ".tgt"});
  expect_success(bleu);
  EXPECT_EQ(bleu.out.rfind("BLEU = ", 0), 0u) << bleu;

  auto other = train_args(out, "120", "2");
  other.push_back("--resume");
  expect_clean_error(run_cli(other), {"--resume: cannot resume '" + out + ".state'",
                                      "subword pieces: 100 in the state, 120 now"});
  auto resume = train_args(out, "100", "2");
  resume.push_back("--resume");
  const Outcome resumed = run_cli(resume);
  expect_success(resumed);
  EXPECT_NE(resumed.err.find("resuming '" + out + ".state' after epoch 1"), std::string::npos)
      << resumed;
}

// The model records its command as a shell reads it back (a corpus name with spaces and a
// quote quoted), and --init-from starts a run from it; one of another shape is named.
TEST_F(CliSubwords, TheRecordedCommandIsQuotedAndInitFromContinuesIt) {
  const std::string out = folder_ + "/first.attnmodel";
  auto first = train_args(out, "100", "1");
  first.insert(first.end(), {"--corpus-name", "Tom's corpus + more"});
  expect_success(run_cli(first));
  const std::string recorded = read_model_info(out).training.command;
  EXPECT_NE(recorded.find("--corpus-name 'Tom'\\''s corpus + more'"), std::string::npos)
      << recorded;
  EXPECT_NE(recorded.find(" --emb 8 "), std::string::npos) << recorded;

  const std::string next = folder_ + "/next.attnmodel";
  auto continued = train_args(next, "0", "1");
  continued.erase(continued.end() - 4, continued.end() - 2);  // no --subwords: the model's
  continued.insert(continued.end(), {"--init-from", out});
  const Outcome outcome = run_cli(continued);
  expect_success(outcome);
  EXPECT_NE(outcome.err.find("starting from the weights of '" + out + "' (1 epoch on Tom's"),
            std::string::npos)
      << outcome;
  const ModelInfo info = read_model_info(next);
  EXPECT_EQ(info.training.epochs, 2);
  EXPECT_EQ(info.training.command.rfind(recorded + "; then attnscope-cli train", 0), 0u)
      << info.training.command;

  auto wider = train_args(folder_ + "/wider.attnmodel", "0", "1");
  wider.erase(wider.end() - 4, wider.end() - 2);
  *(std::find(wider.begin(), wider.end(), "--hidden") + 1) = "16";
  wider.insert(wider.end(), {"--init-from", out});
  expect_clean_error(run_cli(wider), {"--init-from: '" + out + "' is a model of another shape",
                                      "hidden 8 there, 16 here"});
}

TEST_F(CliSubwords, BadPieceCountsAndIncompleteModelFilesGiveOneLine) {
  const std::string out = folder_ + "/bad.attnmodel";
  expect_clean_error(run_cli(train_args(out, "50", "1")),
                     {"--subwords: the number of subword pieces must be between 100 and 64000"});
  expect_clean_error(run_cli(train_args(out, "abc", "1")), {"--subwords"});

  // The target's SentencePiece model, the file's last tensor, removed.
  const std::string whole = testing::subword_model();
  const std::string path = folder_ + "/incomplete.attnmodel";
  size_t offset = 0;
  write_bytes(folder_, "incomplete.attnmodel",
              testing::with_header(
                  whole,
                  [&](nlohmann::json& h) {
                    offset = h["tensors"].back()["offset"].get<size_t>();
                    h["tensors"].erase(h["tensors"].end() - 1);
                  },
                  [&](std::string& data) { data.resize(offset); }));
  expect_clean_error(run_cli({"translate", "--model", path, "Kalo."}),
                     {"model file '" + path + "' lacks its target SentencePiece model"});
}

}  // namespace
}  // namespace attnscope
