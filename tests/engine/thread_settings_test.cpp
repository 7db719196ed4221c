// Threads and process-wide state: a thread count is the calling thread's own; a training run
// takes its workers from its options, not from the calling thread's torch setting, gives that
// thread its count back, and leaves glibc's allocator as it found it.
#include "attnscope/thread_settings.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "attnscope/errors.h"
#include "attnscope/trainer.h"
#include "engine/test_models.h"
#include "io/checkpoint.h"

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

#if defined(__GLIBC__)
// Bytes free in the main arena, its top included: no request larger than this can be served
// from memory the heap already holds.
size_t main_arena_free_bytes() {
  char* text = nullptr;
  size_t length = 0;
  FILE* out = open_memstream(&text, &length);
  malloc_info(0, out);
  std::fclose(out);
  const std::string info(text, length);
  std::free(text);
  // The first heap is the main arena; its non-fast free chunks and top are "rest".
  const std::string key = "<total type=\"rest\" count=\"";
  const size_t at = info.find(key);
  if (at == std::string::npos) return SIZE_MAX;
  const size_t size = info.find("size=\"", at);
  return size == std::string::npos ? SIZE_MAX : std::stoull(info.substr(size + 6));
}

// Whether glibc serves a fresh block of `bytes` with a mapping of its own: above the mmap
// threshold, and larger than any free memory the heap holds.
bool mapped(size_t bytes) {
  const size_t before = mallinfo2().hblks;
  void* volatile block = std::malloc(bytes);
  const size_t during = mallinfo2().hblks;
  std::free(block);
  return during > before;
}

TEST(ThreadSettings, TheAllocatorTuningEndsWithTheRun) {
  const TrainOptions options = short_run("allocator.attnmodel");
  train(options);
  // glibc's default mmap threshold is 128 KiB; training raises it to 32 MiB while it runs. A
  // block between the two, larger than the heap's free memory, shows which one holds.
  const size_t bytes = std::max<size_t>(1 << 20, main_arena_free_bytes() + (1 << 20));
  if (bytes >= (32u << 20)) GTEST_SKIP() << "the heap holds " << bytes << " bytes free";
  EXPECT_TRUE(mapped(bytes)) << bytes;
}
#endif

}  // namespace
}  // namespace attnscope
