// Checkpoint averaging (model_averaging.h) and the epoch models it averages
// (TrainOptions::save_epochs).
#include <attnscope/errors.h>
#include <attnscope/model_averaging.h>
#include <attnscope/trainer.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/test_models.h"
#include "io/checkpoint.h"
#include "train/output_path.h"

#define EXPECT_CONTAINS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

namespace attnscope {
namespace {

TEST(EpochModelPath, PutsTheEpochBeforeTheExtension) {
  EXPECT_EQ(epoch_model_path("runs/a.attnmodel", 7), "runs/a.epoch07.attnmodel");
  EXPECT_EQ(epoch_model_path("runs/a.attnmodel", 123), "runs/a.epoch123.attnmodel");
  EXPECT_EQ(epoch_model_path("model", 2), "model.epoch02");
  EXPECT_EQ(epoch_model_path(".attnmodel", 1), ".attnmodel.epoch01");
}

// One run of three epochs with every epoch's model kept (trained once per process).
struct Run {
  TrainOptions options;
  std::string epoch(int n) const { return epoch_model_path(options.output_path, n); }
};

const Run& run() {
  static const Run r = [] {
    Run run{testing::task_training(testing::temporary_folder(), testing::Task::kReverse, "additive",
                                   200, 20, 3, "run.attnmodel")};
    run.options.epochs = 3;
    run.options.save_epochs = true;
    train(run.options);
    return run;
  }();
  return r;
}

TEST(ModelAveraging, EveryEpochIsKeptWithItsOwnRecord) {
  for (int n = 1; n <= 3; ++n) {
    ASSERT_TRUE(std::filesystem::exists(run().epoch(n))) << n;
    const Checkpoint c = load_checkpoint(run().epoch(n), /*header_only=*/true);
    EXPECT_EQ(c.training.best_epoch, n);
    EXPECT_EQ(c.training.epochs, n);
  }
  EXPECT_FALSE(std::filesystem::exists(run().epoch(4)));
  // The best model is one of them, byte for byte in its weights.
  const Checkpoint best = load_checkpoint(run().options.output_path);
  const Checkpoint same = load_checkpoint(run().epoch(best.training.best_epoch));
  for (size_t t = 0; t < best.tensors.size(); ++t)
    EXPECT_TRUE(torch::equal(best.tensors[t].second, same.tensors[t].second));
}

TEST(ModelAveraging, TheWeightsAreTheMeanAndTheFiguresAreCleared) {
  const std::string out = testing::temporary_folder() + "/mean.attnmodel";
  average_models({run().epoch(2), run().epoch(3)}, out, "average test");
  const Checkpoint a = load_checkpoint(run().epoch(2)), b = load_checkpoint(run().epoch(3));
  const Checkpoint mean = load_checkpoint(out);
  ASSERT_EQ(mean.tensors.size(), a.tensors.size());
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    const torch::Tensor expected =
        ((a.tensors[t].second + b.tensors[t].second) / 2).to(torch::kHalf).to(torch::kFloat);
    EXPECT_TRUE(torch::allclose(mean.tensors[t].second, expected, 1e-3, 1e-6))
        << a.tensors[t].first;
  }
  EXPECT_FALSE(torch::equal(mean.tensors[0].second, a.tensors[0].second));  // not a copy
  EXPECT_EQ(mean.training.command, "average test");                         // the run records none
  // After a recorded command, the averaging follows it: the mean says how it was made.
  std::vector<std::string> recorded;
  for (int epoch : {2, 3}) {
    recorded.push_back(testing::temporary_folder() + "/recorded.attnmodel");
    std::ofstream(recorded.back(), std::ios::binary) << testing::with_header(
        run().epoch(epoch), [](nlohmann::json& h) { h["training"]["command"] = "train it"; });
  }
  average_models(recorded, out, "average them");
  EXPECT_EQ(load_checkpoint(out).training.command, "train it; then average them");
  EXPECT_EQ(mean.training.best_epoch, 3);
  EXPECT_LT(mean.training.validation_bleu, 0.0);
  EXPECT_LT(mean.training.test_bleu, 0.0);
  EXPECT_EQ(mean.source_vocabulary.tokens(), a.source_vocabulary.tokens());
  // It is a model: it translates.
  EXPECT_FALSE(Translator(out).translate("a b c").tokens.empty());
}

TEST(ModelAveraging, ModelsOfAnotherShapeStatesAndSingleFilesAreRefusedByName) {
  const std::string out = testing::temporary_folder() + "/refused.attnmodel";
  const std::string other = testing::random_model_file("dot");
  auto error_of = [&](const std::vector<std::string>& inputs) {
    try {
      average_models(inputs, out, "x");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_CONTAINS(error_of({run().epoch(1), other}),
                  "'" + other + "' cannot be averaged with '" + run().epoch(1) + "'");
  EXPECT_CONTAINS(error_of({run().epoch(1), run().options.output_path + ".state"}),
                  "is a training state, not a model file");
  EXPECT_CONTAINS(error_of({run().options.output_path + ".state", run().epoch(1)}),
                  "is a training state");
  EXPECT_CONTAINS(error_of({run().epoch(1)}), "two or more model files");
  // The same shape from another start: a run of another seed.
  TrainOptions another = run().options;
  another.seed = 2;
  another.epochs = 1;
  another.save_epochs = false;
  another.output_path = testing::temporary_folder() + "/another.attnmodel";
  train(another);
  EXPECT_CONTAINS(error_of({run().epoch(1), another.output_path}),
                  "another training run (seed 2, not 1)");
  EXPECT_CONTAINS(error_of({run().epoch(1), "/nonexistent.attnmodel"}), "/nonexistent.attnmodel");
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace attnscope
