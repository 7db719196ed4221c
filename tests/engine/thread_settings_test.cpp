// Threads and process-wide state: a thread count is the calling thread's own; a training run
// takes its workers from its options, not from the calling thread's torch setting, gives that
// thread its count back, and leaves glibc's allocator as it found it.
#include "attnscope/thread_settings.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "attnscope/errors.h"
#include "attnscope/trainer.h"
#include "engine/test_models.h"
#include "io/checkpoint.h"
#include "train/allocator_tuning.h"

namespace attnscope {
namespace {

// A reverse-task run of 10 batches, small enough for seconds; dropout on, so that how the
// batches are split among workers shows in the weights.
TrainOptions short_run(const std::string& name) {
  TrainOptions options = task_options("reverse", testing::temporary_folder() + "/" + name);
  options.task_examples = 320;
  options.epochs = 1;
  options.model.embedding = 16;
  options.model.hidden = options.model.attention = 32;
  options.model.dropout = 0.2;
  options.snapshot_every = 0;
  return options;
}

// Trains on a thread of its own whose torch thread count is `caller_threads`; returns that
// thread's count afterwards.
int train_from_thread(const TrainOptions& options, int caller_threads) {
  int after = -1;
  std::thread([&] {
    set_thread_count(caller_threads);
    train(options);
    after = thread_count();
  }).join();
  return after;
}

void expect_same_weights(const std::string& a_path, const std::string& b_path) {
  const Checkpoint a = load_checkpoint(a_path), b = load_checkpoint(b_path);
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i)
    EXPECT_TRUE(torch::equal(a.tensors[i].second, b.tensors[i].second)) << a.tensors[i].first;
}

TEST(ThreadSettings, ACountIsTheCallingThreadsOwn) {
  int other = -1;
  std::thread([&] {
    set_thread_count(1);
    std::thread([] { set_thread_count(2); }).join();
    other = thread_count();
  }).join();
  EXPECT_EQ(other, 1);
  std::thread([&] {
    set_thread_count(2);
    other = thread_count();
  }).join();
  EXPECT_EQ(other, 2);
  EXPECT_EQ(resolve_thread_count(0),
            static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

TEST(ThreadSettings, TrainingDoesNotDependOnTheCallingThreadsCount) {
  const TrainOptions one = short_run("caller-1.attnmodel");
  const TrainOptions two = short_run("caller-2.attnmodel");
  EXPECT_EQ(train_from_thread(one, 1), 1);
  EXPECT_EQ(train_from_thread(two, 2), 2);  // the caller's count, given back
  expect_same_weights(one.output_path, two.output_path);
}

TEST(ThreadSettings, TrainingTakesItsWorkersFromItsOptions) {
  TrainOptions a = short_run("options-2-caller-1.attnmodel");
  TrainOptions b = short_run("options-2-caller-2.attnmodel");
  TrainOptions c = short_run("options-1.attnmodel");
  a.threads = b.threads = 2;
  c.threads = 1;
  int seen = -1;
  TrainObserver observer;
  observer.epoch_done = [&seen](const EpochSummary&) { seen = thread_count(); };
  std::thread([&] {
    set_thread_count(1);
    train(a, observer);
  }).join();
  EXPECT_EQ(seen, 2);  // the calling thread runs with the run's count
  EXPECT_EQ(train_from_thread(b, 2), 2);
  EXPECT_EQ(train_from_thread(c, 2), 2);
  expect_same_weights(a.output_path, b.output_path);
  // Two workers split every batch, each drawing its own dropout: another model than one's.
  const Checkpoint two = load_checkpoint(a.output_path), one = load_checkpoint(c.output_path);
  bool differ = false;
  for (size_t i = 0; i < two.tensors.size(); ++i)
    differ = differ || !torch::equal(two.tensors[i].second, one.tensors[i].second);
  EXPECT_TRUE(differ);
}

TEST(ThreadSettings, BadThreadCountsAreRefused) {
  TrainOptions options = short_run("bad.attnmodel");
  options.threads = -1;
  try {
    train(options);
    FAIL() << "a negative thread count was taken";
  } catch (const SettingError& e) {
    EXPECT_EQ(e.setting(), "threads");
  }
}

TEST(ThreadSettings, TheAllocatorTuningEndsWithTheRun) {
  // The raised glibc thresholds are the process's: they must not outlive the run (in the app,
  // the other tabs would keep the run's freed memory). Checked on the tuning's own count: what
  // glibc then does with a block depends on what the heap happens to hold free.
  EXPECT_FALSE(AllocatorTuning::active());
  std::atomic<bool> tunedDuringTheRun{false};
  TrainObserver observer;
  observer.progress = [&](const TrainProgress&) {
    if (AllocatorTuning::active()) tunedDuringTheRun = true;
  };
  train(short_run("allocator.attnmodel"), observer);
  EXPECT_TRUE(tunedDuringTheRun);
  EXPECT_FALSE(AllocatorTuning::active());
}

}  // namespace
}  // namespace attnscope
