// The optimised training path (teacher_forced_loss: batched input gates, output layer once over
// the real positions) must train like the straightforward one (stepwise_loss: one decoder step
// at a time, output layer in the loop, padding ignored), from the same seed.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/test_models.h"
#include "parallel_corpus.h"
#include "training_loss.h"

namespace attnscope {
namespace {

struct Data {
  std::vector<IdPair> train, valid;
  int64_t source_vocab = 0, target_vocab = 0;
};

Data copy_task() {
  const std::string folder = testing::temporary_folder();
  const auto train_prefix = testing::write_task_corpus(folder, "t", testing::Task::kReverse, 800, 21);
  const auto valid_prefix = testing::write_task_corpus(folder, "v", testing::Task::kReverse, 100, 22);
  const TokenizedPairs train = read_parallel(train_prefix + ".src", train_prefix + ".tgt", 50);
  const TokenizedPairs valid = read_parallel(valid_prefix + ".src", valid_prefix + ".tgt", 50);
  const Vocabulary source = Vocabulary::build(train.source, 1), target = Vocabulary::build(train.target, 1);
  return {to_ids(train, source, target), to_ids(valid, source, target), source.size(), target.size()};
}

double validation_loss(Seq2Seq& model, const Data& data) {
  torch::NoGradGuard no_grad;
  model->eval();
  double sum = 0.0;
  int64_t tokens = 0;
  for (const auto& indices : length_buckets(data.valid, 50)) {
    const Batch batch = make_batch(data.valid, indices);
    sum += teacher_forced_loss(model, batch, 0.0, /*sum=*/true).item<double>();
    tokens += batch.target_tokens;
  }
  return sum / static_cast<double>(tokens);
}

template <typename Loss>
double train_and_validate(const Data& data, const std::string& score, Loss loss) {
  ModelConfig config = testing::tiny_config(score, data.source_vocab, data.target_vocab);
  torch::manual_seed(1);
  Seq2Seq model(config);
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(3e-3));
  const auto buckets = length_buckets(data.train, 32);
  model->train();
  for (int epoch = 0; epoch < 2; ++epoch)
    for (const auto& indices : buckets) {
      const Batch batch = make_batch(data.train, indices);
      adam.zero_grad();
      loss(model, batch).backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      adam.step();
    }
  return validation_loss(model, data);
}

class TrainingEquivalence : public ::testing::TestWithParam<std::string> {};

TEST_P(TrainingEquivalence, SameLossOnOneBatch) {
  const Data data = copy_task();
  torch::manual_seed(2);
  Seq2Seq model(testing::tiny_config(GetParam(), data.source_vocab, data.target_vocab));
  const Batch batch = make_batch(data.train, length_buckets(data.train, 32).back());
  EXPECT_NEAR(teacher_forced_loss(model, batch, 0.1).item<double>(),
              stepwise_loss(model, batch, 0.1).item<double>(), 1e-5);
}

TEST_P(TrainingEquivalence, SameValidationLossAfterAShortRun) {
  const Data data = copy_task();
  const double optimised = train_and_validate(
      data, GetParam(), [](Seq2Seq& m, const Batch& b) { return teacher_forced_loss(m, b); });
  const double straightforward = train_and_validate(
      data, GetParam(), [](Seq2Seq& m, const Batch& b) { return stepwise_loss(m, b); });
  // Below the loss of a uniform guess: the run learned something, so the comparison means more
  // than two untrained models agreeing.
  EXPECT_LT(optimised, 0.9 * std::log(static_cast<double>(data.target_vocab)));
  EXPECT_NEAR(optimised, straightforward, 0.01 * straightforward);
}

INSTANTIATE_TEST_SUITE_P(TwoScores, TrainingEquivalence, ::testing::Values("additive", "dot"));

}  // namespace
}  // namespace attnscope
