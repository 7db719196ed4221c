// attnscope-cli's command line as the app's matches it: --version prints the project's version
// (the one the top CMakeLists.txt sets, as the app's --version does), and train --task without
// --score trains the default score function, as the Train tab does.
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

}  // namespace
}  // namespace attnscope
