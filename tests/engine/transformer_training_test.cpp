// The project's trainer training a Transformer: the warm-up schedule, the reverse task learned,
// bfloat16 products, resuming.
#include <attnscope/errors.h>
#include <attnscope/trainer.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "attnscope/cpu_dispatch.h"
#include "engine/gradient_checks.h"
#include "engine/test_models.h"
#include "engine/translation_checks.h"
#include "io/checkpoint.h"
#include "model/transformer.h"
#include "train/data_parallel.h"
#include "train/parallel_corpus.h"
#include "train/warmup_schedule.h"

namespace attnscope {
namespace {

// A Transformer on the reverse task, small enough to learn it in seconds.
TrainOptions reverse_transformer(const std::string& folder, const std::string& name) {
  TrainOptions options =
      testing::task_training(folder, testing::Task::kReverse, kTransformerScore, 1200, 50, 7, name);
  options.model = testing::tiny_transformer_config();
  options.model.embedding = options.model.hidden = 32;
  options.model.feed_forward = 64;
  options.batch_size = 32;
  options.label_smoothing = 0.0;
  options.min_frequency = 1;
  options.learning_rate = 3e-3;
  options.warmup_steps = 40;
  return options;
}

TEST(WarmupSchedule, RisesLinearlyThenFallsAsTheInverseSquareRoot) {
  EXPECT_DOUBLE_EQ(warmup_learning_rate(1e-3, 4, 1), 2.5e-4);
  EXPECT_DOUBLE_EQ(warmup_learning_rate(1e-3, 4, 3), 7.5e-4);
  EXPECT_DOUBLE_EQ(warmup_learning_rate(1e-3, 4, 4), 1e-3);
  EXPECT_DOUBLE_EQ(warmup_learning_rate(1e-3, 4, 16), 5e-4);
  EXPECT_DOUBLE_EQ(warmup_learning_rate(1e-3, 4, 400), 1e-4);
}

TEST(TransformerTraining, LearnsTheReverseTask) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = reverse_transformer(folder, "reverse.attnmodel");
  options.epochs = 16;
  options.patience = 16;
  std::vector<EpochSummary> epochs;
  TrainObserver observer;
  observer.epoch_done = [&](const EpochSummary& s) { epochs.push_back(s); };
  train(options, observer);
  ASSERT_GE(epochs.size(), 2u);
  EXPECT_LT(epochs.back().train_loss, 0.5 * epochs.front().train_loss);
  for (const auto& e : epochs)
    std::cout << "[ figures  ] epoch " << e.epoch << ": train loss " << e.train_loss
              << ", validation loss " << e.validation_loss << ", BLEU " << e.validation_bleu
              << ", learning rate " << e.learning_rate << "\n";
  const Translator translator(options.output_path);
  EXPECT_EQ(translator.info().name, "transformer");
  // The task's symbols are the same on both sides: one embedding table.
  EXPECT_TRUE(translator.info().config.shared_embeddings);
  int correct = 0;
  for (const std::string sentence : {"a b c d", "q r s t e", "f g h", "j i k l m n"}) {
    const Translation t = translator.translate(sentence);
    testing::expect_attention_contract(t);
    std::string reversed = sentence;
    std::reverse(reversed.begin(), reversed.end());
    correct += t.text() == reversed;
    std::cout << "[ figures  ] " << sentence << " -> " << t.text() << "\n";
  }
  EXPECT_GE(correct, 3);
}

TEST(TransformerTraining, ResumingEndsWithTheSameWeights) {
  const std::string folder = testing::temporary_folder();
  TrainOptions whole = reverse_transformer(folder, "whole.attnmodel");
  whole.epochs = 2;
  whole.max_batches = 6;
  whole.warmup_steps = 8;  // the second epoch is past the warm-up: its rate needs the batch count
  train(whole);
  TrainOptions part = whole;
  part.output_path = folder + "/part.attnmodel";
  part.epochs = 1;
  train(part);
  part.resume = true;
  part.epochs = 2;
  TrainOptions other = part;
  other.model.heads = 2;
  try {
    train(other);
    ADD_FAILURE() << "resumed with other heads";
  } catch (const SettingError& e) {
    EXPECT_NE(std::string(e.what()).find("attention heads: 4 in the state, 2 now"),
              std::string::npos)
        << e.what();
  }
  train(part);
  const Checkpoint a = load_checkpoint(whole.output_path + ".state"),
                   b = load_checkpoint(part.output_path + ".state");
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  // The weights; the optimizer's serialised state is bytes of an archive, not compared.
  for (size_t i = 0; i < a.tensors.size(); ++i)
    if (a.tensors[i].first != "optimizer")
      EXPECT_TRUE(torch::equal(a.tensors[i].second, b.tensors[i].second)) << a.tensors[i].first;
  EXPECT_EQ(b.extra["resume"]["batches"], 12);
}

TEST(TransformerTraining, BadShapesAreRefusedNamingTheSetting) {
  const std::string folder = testing::temporary_folder();
  const std::vector<std::pair<std::string, std::function<void(TrainOptions&)>>> cases = {
      {"model.heads", [](TrainOptions& o) { o.model.heads = 3; }},
      {"model.layers", [](TrainOptions& o) { o.model.layers = 0; }},
      {"model.score", [](TrainOptions& o) { o.model.score = "additive"; }},
      {"model.hidden", [](TrainOptions& o) { o.model.hidden = 64; }},
      {"model.arch", [](TrainOptions& o) { o.model.arch = "lstm"; }},
      {"warmup_steps", [](TrainOptions& o) { o.warmup_steps = -1; }},
  };
  for (const auto& [setting, change] : cases) {
    TrainOptions options = reverse_transformer(folder, "bad.attnmodel");
    change(options);
    try {
      check_train_options(options);
      ADD_FAILURE() << setting;
    } catch (const SettingError& e) {
      EXPECT_EQ(e.setting(), setting) << e.what();
    }
  }
}

// As for the RNNs (training_equivalence_test.cpp): bfloat16 products round the same gradient,
// each parameter's within a few percent of float32's, and the path ran (not all equal).
TEST(TransformerTraining, Bfloat16ProductsGiveNearlyTheSameGradient) {
  const std::string folder = testing::temporary_folder();
  const std::string prefix =
      testing::write_task_corpus(folder, "t", testing::Task::kReverse, 64, 3);
  const TokenizedPairs text = read_parallel(prefix + ".src", prefix + ".tgt", 30, false);
  const Vocabulary vocabulary = Vocabulary::build(text.source, 1);
  const std::vector<IdPair> pairs = to_ids(text, vocabulary, vocabulary);
  const Batch batch = make_batch(pairs, length_buckets(pairs, 32).back());
  torch::manual_seed(2);
  Transformer model(testing::tiny_transformer_config(vocabulary.size(), vocabulary.size()));
  model->train();
  testing::expect_bfloat16_gradients_near_float32(*model, batch);
}

}  // namespace
}  // namespace attnscope
