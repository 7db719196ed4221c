// attnscope-cli's command line as the app's matches it: --version prints the project's version
// (the one the top CMakeLists.txt sets, as the app's --version does), and train --task without
// --score trains the default score function, as the Train tab does; --arch transformer trains a
// Transformer with its own defaults.
#include <attnscope/model_catalog.h>
#include <attnscope/model_config.h>
#include <gtest/gtest.h>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;

TEST(CliVersion, PrintsTheProjectVersion) {
  const Outcome r = run_cli({"--version"});
  expect_success(r);
  EXPECT_EQ(r.out, "attnscope-cli " ATTNSCOPE_VERSION "\n");
  EXPECT_EQ(r.err, "");
}

TEST(CliTrainingTask, TrainsTheDefaultScoreFunctionWithoutScore) {
  const std::string model = testing::temporary_folder() + "/reverse.attnmodel";
  RunOptions slow;
  slow.timeout = 300;
  const Outcome r = run_cli({"train", "--task", "reverse", "--out", model, "--epochs", "1",
                             "--examples", "256", "--emb", "16", "--hidden", "32"},
                            slow);
  expect_success(r);
  const ModelInfo info = read_model_info(model);
  EXPECT_EQ(info.config.score, ModelConfig{}.score);
  EXPECT_EQ(info.config.score, "additive");  // the Train tab's first choice
}

TEST(CliTrainingTask, ArchTransformerTrainsATransformerWithItsOwnDefaults) {
  const std::string folder = testing::temporary_folder();
  RunOptions slow;
  slow.timeout = 300;
  const Outcome r = run_cli({"train", "--task", "reverse", "--out", folder + "/t.attnmodel",
                             "--epochs", "1", "--examples", "256", "--arch", "transformer",
                             "--layers", "1", "--heads", "2", "--ff", "32", "--emb", "16"},
                            slow);
  expect_success(r);
  const ModelInfo info = read_model_info(folder + "/t.attnmodel");
  EXPECT_EQ(info.config.arch, kTransformerArch);
  EXPECT_EQ(info.config.score, kTransformerScore);  // without --score
  EXPECT_EQ(info.config.hidden, 16);                // without --hidden: the model size
  EXPECT_EQ(info.config.layers, 1);
  EXPECT_EQ(info.config.heads, 2);
  EXPECT_EQ(info.config.feed_forward, 32);
  // What a Transformer cannot have is refused, naming the flag.
  const Outcome bad = run_cli({"train", "--task", "reverse", "--out", folder + "/bad.attnmodel",
                               "--arch", "transformer", "--score", "additive"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--score: a Transformer's attention is scaled_dot"), std::string::npos)
      << bad.err;
}

}  // namespace
}  // namespace attnscope
