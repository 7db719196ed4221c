// The optimised training path (teacher_forced_loss: batched input gates, output layer once over
// the real positions; compute_gradients: the batch split among worker threads) must train like
// the straightforward one (stepwise_loss: one decoder step at a time, output layer in the loop,
// padding ignored, one thread), from the same seed.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/gradient_checks.h"
#include "engine/test_models.h"
#include "train/data_parallel.h"
#include "train/parallel_corpus.h"
#include "train/training_loss.h"

namespace attnscope {
namespace {

struct Data {
  std::vector<IdPair> train, valid;
  int64_t source_vocab = 0, target_vocab = 0;
};

Data reverse_task() {
  const std::string folder = testing::temporary_folder();
  const auto train_prefix =
      testing::write_task_corpus(folder, "t", testing::Task::kReverse, 800, 21);
  const auto valid_prefix =
      testing::write_task_corpus(folder, "v", testing::Task::kReverse, 100, 22);
  const TokenizedPairs train = read_parallel(train_prefix + ".src", train_prefix + ".tgt", 50);
  const TokenizedPairs valid = read_parallel(valid_prefix + ".src", valid_prefix + ".tgt", 50);
  const Vocabulary source = Vocabulary::build(train.source, 1),
                   target = Vocabulary::build(train.target, 1);
  return {to_ids(train, source, target), to_ids(valid, source, target), source.size(),
          target.size()};
}

double validation_loss(Seq2Seq& model, const Data& data) {
  torch::NoGradGuard no_grad;
  model->eval();
  double sum = 0.0;
  int64_t tokens = 0;
  for (const auto& indices : length_buckets(data.valid, 50)) {
    const Batch batch = make_batch(data.valid, indices);
    sum += teacher_forced_loss(*model, batch, 0.0, /*sum=*/true).item<double>();
    tokens += batch.target_tokens;
  }
  return sum / static_cast<double>(tokens);
}

// set_gradients(model, batch) leaves the batch's mean-loss gradient in every parameter's grad.
// The output layer comes in two kinds with separate loss paths: tied to the target embedding
// through a readout (the shipped models), or one direct matrix (the reference's shape), whose
// loss takes the embedding inputs once per distinct token.
struct Shape {
  std::string score;
  bool tied_readout;
  std::string decoder = kGruDecoder;
};

void PrintTo(const Shape& shape, std::ostream* out) {
  *out << shape.score << (shape.tied_readout ? "_tied" : "_direct") << "_" << shape.decoder;
}

ModelConfig config_for(const Shape& shape, const Data& data) {
  ModelConfig config = testing::tiny_config(shape.score, data.source_vocab, data.target_vocab);
  config.tied_readout = shape.tied_readout;
  config.decoder = shape.decoder;
  return config;
}

template <typename SetGradients>
double train_and_validate(const Data& data, const ModelConfig& config, SetGradients set_gradients) {
  torch::manual_seed(1);
  Seq2Seq model(config);
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(3e-3));
  const auto buckets = length_buckets(data.train, 32);
  model->train();
  for (int epoch = 0; epoch < 2; ++epoch)
    for (const auto& indices : buckets) {
      const Batch batch = make_batch(data.train, indices);
      set_gradients(model, batch);
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      adam.step();
    }
  return validation_loss(model, data);
}

template <typename Loss>
auto by_backward(Loss loss) {
  return [loss](Seq2Seq& model, const Batch& batch) {
    for (auto& p : model->parameters()) p.mutable_grad() = torch::Tensor();
    loss(model, batch).backward();
  };
}

std::vector<torch::Tensor> gradients_of(Seq2Seq& model) {
  std::vector<torch::Tensor> gradients;
  for (const auto& p : model->parameters()) gradients.push_back(p.grad().clone());
  return gradients;
}

class TrainingEquivalence : public ::testing::TestWithParam<Shape> {};

TEST_P(TrainingEquivalence, SameLossOnOneBatch) {
  const Data data = reverse_task();
  torch::manual_seed(2);
  Seq2Seq model(config_for(GetParam(), data));
  const Batch batch = make_batch(data.train, length_buckets(data.train, 32).back());
  EXPECT_NEAR(teacher_forced_loss(*model, batch, 0.1).item<double>(),
              stepwise_loss(model, batch, 0.1).item<double>(), 1e-5);
}

TEST_P(TrainingEquivalence, SameGradientOnOneBatch) {
  const Data data = reverse_task();
  torch::manual_seed(2);
  Seq2Seq model(config_for(GetParam(), data));
  model->train();
  const Batch batch = make_batch(data.train, length_buckets(data.train, 32).back());
  by_backward([](Seq2Seq& m, const Batch& b) { return teacher_forced_loss(*m, b, 0.1); })(model,
                                                                                          batch);
  const auto optimised = gradients_of(model);
  by_backward([](Seq2Seq& m, const Batch& b) { return stepwise_loss(m, b, 0.1); })(model, batch);
  const auto straightforward = gradients_of(model);
  const auto names = model->named_parameters().keys();
  for (size_t p = 0; p < straightforward.size(); ++p) {
    EXPECT_GT(straightforward[p].abs().sum().item<double>(), 0.0) << names[p];
    EXPECT_TRUE(torch::allclose(optimised[p], straightforward[p], 1e-4, 1e-6)) << names[p];
  }
}

TEST_P(TrainingEquivalence, SameValidationLossAfterAShortRun) {
  const Data data = reverse_task();
  const ModelConfig config = config_for(GetParam(), data);
  const double optimised = train_and_validate(
      data, config,
      by_backward([](Seq2Seq& m, const Batch& b) { return teacher_forced_loss(*m, b); }));
  const double straightforward = train_and_validate(
      data, config, by_backward([](Seq2Seq& m, const Batch& b) { return stepwise_loss(m, b); }));
  const double two_workers = train_and_validate(
      data, config, [](Seq2Seq& m, const Batch& b) { compute_gradients(*m, b, 0.0, 2, 0); });
  // Below the loss of a uniform guess: the run learned something, so the comparison means more
  // than two untrained models agreeing.
  EXPECT_LT(optimised, 0.9 * std::log(static_cast<double>(data.target_vocab)));
  EXPECT_NEAR(optimised, straightforward, 0.01 * straightforward);
  EXPECT_NEAR(two_workers, straightforward, 0.01 * straightforward);
}

TEST_P(TrainingEquivalence, WorkersSplitABatchIntoTheSameGradient) {
  const Data data = reverse_task();
  torch::manual_seed(2);
  Seq2Seq model(config_for(GetParam(), data));
  model->train();
  const Batch batch = make_batch(data.train, length_buckets(data.train, 32).back());
  const double whole = teacher_forced_loss(*model, batch, 0.1).item<double>();
  for (int workers : {1, 2, 3}) {
    EXPECT_NEAR(compute_gradients(*model, batch, 0.1, workers, 0), whole, 1e-5) << workers;
    const auto split = gradients_of(model);
    by_backward([](Seq2Seq& m, const Batch& b) { return teacher_forced_loss(*m, b, 0.1); })(model,
                                                                                            batch);
    const auto reference = gradients_of(model);
    for (size_t p = 0; p < reference.size(); ++p)
      EXPECT_TRUE(torch::allclose(split[p], reference[p], 1e-4, 1e-6)) << workers << " " << p;
  }
}

// Mixed precision (bfloat16 products, float32 everything else) is a rounding of the same
// gradient: each parameter's gradient within a few percent of float32's, and not equal to it
// (so the bfloat16 path ran). On a CPU without native bfloat16 it is slow, not wrong.
TEST_P(TrainingEquivalence, Bfloat16ProductsGiveNearlyTheSameGradient) {
  const Data data = reverse_task();
  torch::manual_seed(2);
  Seq2Seq model(config_for(GetParam(), data));
  model->train();
  const Batch batch = make_batch(data.train, length_buckets(data.train, 32).back());
  testing::expect_bfloat16_gradients_near_float32(*model, batch);
}

// In bfloat16 two workers leave the output weight's gradient as their products made it and the
// sum widens it (output_gradient_sum.h): bit for bit the same as each share's gradient computed
// alone (a rank's part of the batch) and the two added in share order, also where the weight
// is tied to the embedding and so has a gradient from autograd too.
TEST_P(TrainingEquivalence, Bfloat16WorkersSumTheOutputGradientAsSharesAlone) {
  const Data data = reverse_task();
  torch::manual_seed(2);
  Seq2Seq model(config_for(GetParam(), data));
  model->train();
  const Batch batch = make_batch(data.train, length_buckets(data.train, 32).back());
  compute_gradients(*model, batch, 0.1, 2, 0, {}, Precision::kBFloat16);
  const auto together = gradients_of(model);
  std::vector<torch::Tensor> alone;
  for (int share = 0; share < 2; ++share) {
    compute_gradients(*model, batch, 0.1, 1, 0, BatchPart{share, 2}, Precision::kBFloat16);
    const auto part = gradients_of(model);
    for (size_t p = 0; p < part.size(); ++p)
      if (share == 0)
        alone.push_back(part[p]);
      else
        alone[p] = alone[p] + part[p];
  }
  const auto names = model->named_parameters().keys();
  int exact = 0;
  for (size_t p = 0; p < alone.size(); ++p) {
    const std::string output =
        GetParam().tied_readout ? "decoder.embedding.weight" : "decoder.output.weight";
    if (names[p] == output) {
      EXPECT_TRUE(torch::equal(together[p], alone[p])) << names[p];
      ++exact;
    } else {
      EXPECT_TRUE(torch::allclose(together[p], alone[p], 1e-4, 1e-6)) << names[p];
    }
  }
  EXPECT_EQ(exact, 1);  // the output weight was among them
}

TEST_P(TrainingEquivalence, Bfloat16ProductsTrainAsWell) {
  const Data data = reverse_task();
  const ModelConfig config = config_for(GetParam(), data);
  const double exact = train_and_validate(data, config, [](Seq2Seq& m, const Batch& b) {
    compute_gradients(*m, b, 0.0, 2, 0, {}, Precision::kFloat32);
  });
  const double mixed = train_and_validate(data, config, [](Seq2Seq& m, const Batch& b) {
    compute_gradients(*m, b, 0.0, 2, 0, {}, Precision::kBFloat16);
  });
  EXPECT_LT(mixed, 0.9 * std::log(static_cast<double>(data.target_vocab)));
  EXPECT_NEAR(mixed, exact, 0.05 * exact);
}

// A model of the test's shape with dropout 0.3, in training mode.
Seq2Seq model_with_dropout(const Data& data, const Shape& shape) {
  ModelConfig config = config_for(shape, data);
  config.dropout = 0.3;
  torch::manual_seed(2);
  Seq2Seq model(config);
  model->train();
  return model;
}

TEST_P(TrainingEquivalence, WorkersDrawTheSameDropoutEveryRun) {
  const Data data = reverse_task();
  Seq2Seq model = model_with_dropout(data, GetParam());
  const Batch batch = make_batch(data.train, length_buckets(data.train, 32).back());
  compute_gradients(*model, batch, 0.0, 2, 42);
  const auto first = gradients_of(model);
  compute_gradients(*model, batch, 0.0, 2, 42);
  const auto again = gradients_of(model);
  compute_gradients(*model, batch, 0.0, 2, 43);
  const auto other_seed = gradients_of(model);
  bool seed_matters = false;
  for (size_t p = 0; p < first.size(); ++p) {
    EXPECT_TRUE(torch::equal(first[p], again[p])) << p;
    seed_matters = seed_matters || !torch::equal(first[p], other_seed[p]);
  }
  EXPECT_TRUE(seed_matters);
}

// Processes training together (BatchPart): each rank's part of a batch, summed over the ranks,
// is what one process with as many worker threads computes, dropout included.
TEST_P(TrainingEquivalence, RanksPartsAddUpToTheWorkersGradient) {
  const Data data = reverse_task();
  Seq2Seq model = model_with_dropout(data, GetParam());
  const Batch batch = make_batch(data.train, length_buckets(data.train, 32).back());
  for (int workers : {1, 2}) {
    const double whole = compute_gradients(*model, batch, 0.0, 2 * workers, 42);
    const auto reference = gradients_of(model);
    const double first = compute_gradients(*model, batch, 0.0, workers, 42, {0, 2 * workers});
    const auto rank0 = gradients_of(model);
    const double second =
        compute_gradients(*model, batch, 0.0, workers, 42, {workers, 2 * workers});
    const auto rank1 = gradients_of(model);
    EXPECT_NEAR(first + second, whole, 1e-6) << workers;
    EXPECT_GT(first, 0.0);
    EXPECT_GT(second, 0.0);
    for (size_t p = 0; p < reference.size(); ++p) {
      const torch::Tensor sum = rank0[p] + rank1[p];
      // Two shares add in either order to the same floats; four group differently.
      if (workers == 1)
        EXPECT_TRUE(torch::equal(sum, reference[p])) << p;
      else
        EXPECT_TRUE(torch::allclose(sum, reference[p], 1e-5, 1e-7)) << p;
    }
  }
  // A batch of one sentence has one share: the second rank computes nothing.
  const Batch single = make_batch(data.train, {length_buckets(data.train, 32).back().front()});
  EXPECT_EQ(compute_gradients(*model, single, 0.0, 1, 42, {1, 2}), 0.0);
  for (const auto& p : model->parameters()) EXPECT_FALSE(p.grad().defined());
  // Ranks of different thread counts: one of one thread and one of two, three shares in all.
  const double whole = compute_gradients(*model, batch, 0.0, 3, 42);
  const auto reference = gradients_of(model);
  const double one = compute_gradients(*model, batch, 0.0, 1, 42, {0, 3});
  const auto rank0 = gradients_of(model);
  const double two = compute_gradients(*model, batch, 0.0, 2, 42, {1, 3});
  const auto rank1 = gradients_of(model);
  EXPECT_NEAR(one + two, whole, 1e-6);
  for (size_t p = 0; p < reference.size(); ++p)
    EXPECT_TRUE(torch::allclose(rank0[p] + rank1[p], reference[p], 1e-5, 1e-7)) << p;
}

TEST(SplitBatch, SharesPartitionTheBatchAndAreTrimmed) {
  const Data data = reverse_task();
  const Batch batch = make_batch(data.train, length_buckets(data.train, 32).back());
  for (int64_t count : {1, 2, 3}) {
    const std::vector<Batch> shares = split_batch(batch, count);
    ASSERT_EQ(static_cast<int64_t>(shares.size()), count);
    int64_t rows = 0, tokens = 0;
    for (const Batch& share : shares) {
      rows += share.source.size(0);
      tokens += share.target_tokens;
      EXPECT_EQ(share.source.size(1), share.lengths.max().item<int64_t>());
      // The longest target reaches the last column: no column is all padding.
      EXPECT_TRUE((share.target.select(1, share.target.size(1) - 1) != Vocabulary::kPad)
                      .any()
                      .item<bool>());
    }
    EXPECT_EQ(rows, batch.source.size(0)) << count;
    EXPECT_EQ(tokens, batch.target_tokens) << count;
  }
}

TEST(SplitBatch, BalancesWorkNotRows) {
  Batch batch;
  // One target of 30 tokens among seven of 2, sources all 3 long: the long sentence costs
  // about as much as all the others, so it gets a share of its own.
  batch.source = torch::full({8, 3}, 5, torch::kLong);
  batch.lengths = torch::full({8}, 3, torch::kLong);
  batch.target = torch::full({8, 30}, Vocabulary::kPad, torch::kLong);
  batch.target.narrow(1, 0, 2).fill_(5);
  batch.target.select(0, 3).fill_(5);
  batch.target_tokens = 29 + 7;
  const std::vector<Batch> shares = split_batch(batch, 2);
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_EQ(shares[0].source.size(0), 7);
  EXPECT_EQ(shares[0].target.size(1), 2);  // trimmed: the short ones no longer run 30 steps
  EXPECT_EQ(shares[1].source.size(0), 1);
  EXPECT_EQ(shares[1].target_tokens, 29);
  // More shares than sentences: one sentence each.
  EXPECT_EQ(split_batch(batch, 20).size(), 8u);
}

INSTANTIATE_TEST_SUITE_P(ScoresAndOutputs, TrainingEquivalence,
                         ::testing::Values(Shape{"additive", true}, Shape{"dot", true},
                                           Shape{"additive", false}, Shape{"dot", false},
                                           Shape{"location", true},
                                           Shape{"additive", true, kConditionalGruDecoder},
                                           Shape{"location", false, kConditionalGruDecoder}));

}  // namespace
}  // namespace attnscope
