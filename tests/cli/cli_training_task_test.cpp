// attnscope-cli train --task: a built-in task trains without corpus files, writes snapshots the
// engine reads back, and its model translates; bad task settings give one line.
#include <attnscope/training_snapshots.h>
#include <gtest/gtest.h>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;

TEST(CliTrainingTask, TrainsATaskWithSnapshotsAndTranslatesWithIt) {
  const std::string folder = testing::temporary_folder();
  const std::string model = folder + "/dates.attnmodel", snapshots = folder + "/dates.jsonl";
  RunOptions slow;
  slow.timeout = 300;
  const Outcome r = run_cli(
      {"train", "--task", "dates", "--score", "general", "--out", model, "--epochs", "1",
       "--examples", "256", "--snapshots", snapshots, "--snapshot-every", "2", "--threads", "1"},
      slow);
  expect_success(r);
  EXPECT_NE(r.err.find("exact "), std::string::npos) << r.err;  // the epoch line's accuracy
  EXPECT_NE(r.out.find("validation exact match"), std::string::npos) << r.out;
  // 4 batches of 64: snapshots after batches 1, 2 and 4.
  const auto read = read_snapshots(snapshots);
  ASSERT_EQ(read.size(), 3u);
  EXPECT_EQ(read[2].batch, 4);
  EXPECT_EQ(read[0].source.front(), "\u2581w");  // the dates probe, "Wednesday, ...", as characters

  const Outcome t = run_cli({"translate", "--model", model, "--json", "Mar 3, 21"});
  expect_success(t);
  EXPECT_NE(t.out.find("\"source_tokens\":[\"\u2581m\",\"a\",\"r\""), std::string::npos) << t.out;
}

TEST(CliTrainingTask, BadTaskSettingsGiveOneLine) {
  const std::string folder = testing::temporary_folder();
  const std::string out = folder + "/m.attnmodel";
  expect_clean_error(run_cli({"train", "--task", "palindromes", "--score", "dot", "--out", out}),
                     {"--task", "palindromes", "reverse, copy, sort, dates"});
  expect_clean_error(
      run_cli({"train", "--task", "copy", "--score", "dot", "--out", out, "--src", "x.en"}),
      {"--src", "copy", "not both"});
  expect_clean_error(run_cli({"train", "--score", "dot", "--out", out}), {"--src", "--task"});
  expect_clean_error(
      run_cli({"train", "--task", "sort", "--score", "dot", "--out", out, "--examples", "-3"}),
      {"--examples"});
  expect_clean_error(run_cli({"train", "--task", "sort", "--score", "dot", "--out", out,
                              "--snapshots", folder + "/s.jsonl", "--snapshot-every", "-1"}),
                     {"--snapshot-every"});
  expect_clean_error(run_cli({"train", "--task", "sort", "--score", "dot", "--out", out,
                              "--snapshots", folder + "/no/such/folder/s.jsonl"}),
                     {"--snapshots", "no/such/folder"});
}

}  // namespace
}  // namespace attnscope
