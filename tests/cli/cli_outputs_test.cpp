// No output of a command destroys one of its inputs, however the path is spelled; outputs are
// written atomically (an interrupted or failed run leaves the old file), through a symbolic link
// to its target, with the old file's permissions; a FIFO or an empty name is refused at once.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;
using testing::read_bytes;
namespace fs = std::filesystem;

RunOptions with_input(const std::string& text, double timeout = 120.0) {
  RunOptions options;
  options.input = text;
  options.timeout = timeout;
  return options;
}

class CliOutputs : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = testing::temporary_folder();
    model_ = folder_ + "/m.attnmodel";
    fs::copy_file(testing::random_model_file("location"), model_);
    model_bytes_ = read_bytes(model_);
    text_ = write_bytes(folder_, "text.en", "a b c\nc b a\n");
  }
  // The model and the text are as they were.
  void expect_inputs_intact() const {
    EXPECT_EQ(read_bytes(model_), model_bytes_) << "the model was written over";
    EXPECT_EQ(read_bytes(text_), "a b c\nc b a\n") << "the text was written over";
  }
  std::vector<std::string> beam_tree(const std::string& out) const {
    return {"translate", "--model", model_, "--beam", "2", "--threads", "1", "--beam-tree", out};
  }
  std::string folder_, model_, model_bytes_, text_;
};

TEST_F(CliOutputs, ABeamTreeNeverReplacesTheModelOrTheTextItReads) {
  // The model by its own name, by another spelling, through a symbolic link and a hard link.
  fs::create_symlink(model_, folder_ + "/link.attnmodel");
  fs::create_hard_link(model_, folder_ + "/hard.attnmodel");
  for (const std::string& out : {model_, folder_ + "/./m.attnmodel", folder_ + "/link.attnmodel",
                                 folder_ + "/hard.attnmodel"}) {
    SCOPED_TRACE(out);
    expect_clean_error(run_cli(beam_tree(out), with_input("a b\n")),
                       {"--beam-tree '" + out + "'", "input '" + model_ + "'"});
  }
  // The text standard input reads (translate --beam-tree FILE < FILE).
  RunOptions from_text;
  from_text.stdin_path = text_;
  expect_clean_error(run_cli(beam_tree(text_), from_text),
                     {"--beam-tree '" + text_ + "'", "standard input"});
  expect_inputs_intact();
}

TEST_F(CliOutputs, FifosFoldersAndEmptyNamesAreRefusedBeforeAnyWork) {
  const std::string fifo = folder_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  // Without the check, opening the FIFO would block until the timeout.
  const Outcome r = run_cli(beam_tree(fifo), with_input("a b\n", 30));
  expect_clean_error(r, {"--beam-tree '" + fifo + "'", "FIFO"});
  expect_clean_error(run_cli(beam_tree(folder_), with_input("a b\n")),
                     {"--beam-tree '" + folder_ + "'", "folder"});
  expect_clean_error(run_cli(beam_tree(""), with_input("a b\n")), {"--beam-tree", "empty"});
  expect_clean_error(run_cli(beam_tree(folder_ + "/no/such/tree.json"), with_input("a b\n")),
                     {"does not exist"});
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(CliOutputs, ABeamTreeGoesThroughALinkKeepsThePermissionsAndMayGoToStandardOutput) {
  const std::string target = folder_ + "/tree.json", link = folder_ + "/tree-link.json";
  write_bytes(folder_, "tree.json", "old\n");
  ::chmod(target.c_str(), 0640);
  fs::create_symlink(target, link);
  expect_success(run_cli(beam_tree(link), with_input("a b\nb c\n")));
  EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced by a file";
  const std::string tree = read_bytes(target);
  EXPECT_EQ(std::count(tree.begin(), tree.end(), '\n'), 2) << tree;  // one line per sentence
  struct stat status {};
  ASSERT_EQ(::stat(target.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0640u);
  // No temporary file is left beside it.
  for (const auto& entry : fs::directory_iterator(folder_))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();

  const Outcome out = run_cli(beam_tree("-"), with_input("a b\n"));
  expect_success(out);
  ASSERT_EQ(out.out_lines().size(), 2u) << out;  // the tree, then the translation
  EXPECT_EQ(out.out_lines()[0].front(), '{') << out;
}

TEST_F(CliOutputs, AFailedRunLeavesTheOldBeamTreeAsItWas) {
  const std::string tree = write_bytes(folder_, "tree.json", "the old tree\n");
  // The second sentence cannot be read: an unreadable standard input fails the run midway.
  RunOptions unreadable;
  unreadable.stdin_path = folder_;  // a folder: reading it fails
  expect_clean_error(run_cli(beam_tree(tree), unreadable), {"standard input"});
  EXPECT_EQ(read_bytes(tree), "the old tree\n");
}

TEST_F(CliOutputs, AveragingNeverWritesOverAnInputAndRefusesTheSameModelTwice) {
  const std::string copy = folder_ + "/copy.attnmodel";
  fs::copy_file(model_, copy);
  expect_clean_error(run_cli({"average", "--out", model_, model_, copy}),
                     {"--out '" + model_ + "'", "input"});
  expect_clean_error(run_cli({"average", "--out", folder_ + "/a.attnmodel", model_, model_}),
                     {"'" + model_ + "'", "given before"});
  expect_clean_error(run_cli({"average", "--out", "", model_, copy}), {"--out", "empty"});
  expect_clean_error(run_cli({"average", "--out", "-", model_, copy}), {"standard output"});
  // Nothing was written on the way: no temporary file, no file named "-".
  for (const auto& entry : fs::directory_iterator(folder_))
    EXPECT_EQ(entry.path().filename().string().find("tmp"), std::string::npos) << entry.path();
  EXPECT_FALSE(fs::exists("-"));
  expect_inputs_intact();
}

TEST_F(CliOutputs, TrainingNeverWritesOverItsCorpusAndRefusesAFifoForSnapshots) {
  const std::string corpus = testing::write_task_corpus(folder_, "c", testing::Task::kCopy, 40, 1);
  const auto train = [&](const std::string& out, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"train",
                                     "--src",
                                     corpus + ".src",
                                     "--tgt",
                                     corpus + ".tgt",
                                     "--val-src",
                                     corpus + ".src",
                                     "--val-tgt",
                                     corpus + ".tgt",
                                     "--emb",
                                     "8",
                                     "--hidden",
                                     "8",
                                     "--epochs",
                                     "1",
                                     "--min-freq",
                                     "1",
                                     "--threads",
                                     "1",
                                     "--out",
                                     out};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  const std::string source = read_bytes(corpus + ".src");
  expect_clean_error(train(corpus + ".tgt"), {"--out", "input '" + corpus + ".tgt'"});
  const std::string fifo = folder_ + "/snapshots.jsonl";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const std::string out = folder_ + "/run.attnmodel";
  expect_clean_error(train(out, {"--snapshots", fifo, "--snapshot-every", "1"}),
                     {"--snapshots", "FIFO"});
  expect_clean_error(train(out, {"--snapshots", corpus + ".src", "--snapshot-every", "1"}),
                     {"--snapshots", "input '" + corpus + ".src'"});
  expect_clean_error(train(out, {"--snapshots", out, "--snapshot-every", "1"}),
                     {"--snapshots", "model file"});
  EXPECT_EQ(read_bytes(corpus + ".src"), source);
  EXPECT_FALSE(fs::exists(out)) << "training started";

  // A model saved through a symbolic link replaces the link's target, with its permissions.
  const std::string target = write_bytes(folder_, "target.attnmodel", "old");
  ::chmod(target.c_str(), 0600);
  const std::string link = folder_ + "/link.attnmodel";
  fs::create_symlink(target, link);
  expect_success(train(link));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_GT(fs::file_size(target), 1000u);
  struct stat status {};
  ASSERT_EQ(::stat(target.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0600u);
}

TEST_F(CliOutputs, AnExportNeverWritesOverTheModelItDraws) {
  if (!ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "export needs the UI build";
  // A model file named like a picture, drawn into itself.
  const std::string picture = folder_ + "/model.png";
  fs::copy_file(model_, picture);
  expect_clean_error(
      run_cli({"export", "--model", picture, "--out", picture, "--threads", "1", "a b"}),
      {"--out '" + picture + "'", "input"});
  EXPECT_EQ(read_bytes(picture), model_bytes_);
}

}  // namespace
}  // namespace attnscope
