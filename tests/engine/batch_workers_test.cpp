// Corpus decoding's workers: every job runs once, done() runs on the calling thread, the torch
// threads are shared out, a stop or an error ends the run, and a corpus decodes to the same
// translations on any number of threads.
#include "decode/batch_workers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "attnscope/corpus_evaluation.h"
#include "attnscope/thread_settings.h"
#include "attnscope/translator.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

void pause_briefly() { std::this_thread::sleep_for(std::chrono::milliseconds(3)); }

TEST(BatchWorkers, EveryJobRunsOnceAndDoneRunsOnTheCallingThreadForEach) {
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<std::atomic<int>> runs(37);
  std::vector<int> reported(37, 0);
  std::atomic<bool> job_on_caller{false};
  bool done_elsewhere = false;
  const bool completed = run_jobs(
      runs.size(), 2,
      [&](size_t i) {
        if (std::this_thread::get_id() == caller) job_on_caller = true;
        ++runs[i];
        pause_briefly();
      },
      [&](size_t i) {
        done_elsewhere = done_elsewhere || std::this_thread::get_id() != caller;
        ++reported[i];
        return true;
      });
  EXPECT_TRUE(completed);
  for (size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i], 1) << i;
    EXPECT_EQ(reported[i], 1) << i;
  }
  EXPECT_FALSE(job_on_caller) << "two threads: the jobs run on workers";
  EXPECT_FALSE(done_elsewhere);
}

TEST(BatchWorkers, WorkersRunAtOnceAndShareTheTorchThreads) {
  std::mutex mutex;
  std::map<std::thread::id, int> torch_threads;  // each worker's count
  auto arrived = [&] {
    std::lock_guard<std::mutex> lock(mutex);
    return torch_threads.size();
  };
  // Each job waits until `workers` workers have a job (one may start later than the others:
  // setting a thread count takes time), or about two seconds.
  auto job_waiting_for = [&](size_t workers, std::atomic<int>& running,
                             std::atomic<int>& most_at_once) {
    return [&, workers](size_t) {
      const int now = ++running;
      int seen = most_at_once;
      while (now > seen && !most_at_once.compare_exchange_weak(seen, now)) {
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        torch_threads[std::this_thread::get_id()] = thread_count();
      }
      for (int wait = 0; wait < 600 && arrived() < workers; ++wait) pause_briefly();
      --running;
    };
  };
  std::atomic<int> running{0}, most_at_once{0};
  EXPECT_TRUE(
      run_jobs(12, 3, job_waiting_for(3, running, most_at_once), [](size_t) { return true; }));
  EXPECT_EQ(most_at_once, 3);
  std::vector<int> counts;
  for (const auto& [id, count] : torch_threads) counts.push_back(count);
  EXPECT_EQ(counts, (std::vector<int>{1, 1, 1}));
  // Fewer jobs than threads: two workers, one with two torch threads.
  torch_threads.clear();
  most_at_once = 0;
  EXPECT_TRUE(
      run_jobs(2, 3, job_waiting_for(2, running, most_at_once), [](size_t) { return true; }));
  EXPECT_EQ(most_at_once, 2);
  counts.clear();
  for (const auto& [id, count] : torch_threads) counts.push_back(count);
  std::sort(counts.begin(), counts.end());
  EXPECT_EQ(counts, (std::vector<int>{1, 2}));
}

TEST(BatchWorkers, DoneSayingStopEndsTheRunAndIsNotAskedAgain) {
  for (int threads : {1, 2}) {
    std::atomic<int> started{0};
    int asked = 0;
    const bool completed = run_jobs(
        200, threads,
        [&](size_t) {
          ++started;
          pause_briefly();
        },
        [&](size_t) { return ++asked < 3; });
    EXPECT_FALSE(completed) << threads;
    EXPECT_EQ(asked, 3) << threads;
    EXPECT_LT(started, 10) << threads << " threads: the jobs after the stop are skipped";
  }
}

TEST(BatchWorkers, AJobsErrorReachesTheCallerAfterTheWorkersStopped) {
  for (int threads : {1, 2}) {
    std::atomic<int> started{0};
    try {
      run_jobs(
          200, threads,
          [&](size_t i) {
            ++started;
            if (i == 4) throw std::runtime_error("job 4 failed");
            pause_briefly();
          },
          [](size_t) { return true; });
      ADD_FAILURE() << threads << " threads: no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "job 4 failed");
    }
    EXPECT_LT(started, 12) << threads;
  }
}

TEST(BatchWorkers, AnErrorInDoneReachesTheCallerAfterTheWorkersStopped) {
  for (int threads : {1, 2}) {
    std::atomic<int> started{0};
    EXPECT_THROW(run_jobs(
                     200, threads,
                     [&](size_t) {
                       ++started;
                       pause_briefly();
                     },
                     [](size_t) -> bool { throw std::runtime_error("progress failed"); }),
                 std::runtime_error)
        << threads;
    EXPECT_LT(started, 12) << threads;
  }
}

TEST(BatchWorkers, NoJobsIsACompletedRun) {
  EXPECT_TRUE(run_jobs(
      0, 2, [](size_t) { FAIL(); }, [](size_t) { return false; }));
}

TEST(BatchWorkers, ACorpusGetsTheSameTranslationsOnOneThreadAndOnSeveral) {
  const Translator translator(testing::copy_model());
  // 150 sentences: three batches of 64 or fewer, of different lengths.
  std::vector<std::string> sources;
  const char* words[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
  for (int i = 0; i < 150; ++i) {
    std::string s;
    for (int w = 0; w <= i % 7 + 1; ++w) s += std::string(w ? " " : "") + words[(i * 3 + w) % 8];
    sources.push_back(s);
  }
  auto translations = [&](int threads) {
    ScopedThreadCount scope(threads);
    std::vector<size_t> progress;
    const CorpusEvaluation e =
        evaluate_corpus(translator, sources, {}, TranslationOptions{}, [&](size_t done, size_t) {
          progress.push_back(done);
          return true;
        });
    EXPECT_EQ(progress.size(), 3u) << threads;
    EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end())) << threads;
    EXPECT_EQ(progress.empty() ? 0 : progress.back(), sources.size()) << threads;
    return e.translations;
  };
  const std::vector<Translation> one = translations(1), three = translations(3);
  ASSERT_EQ(one.size(), sources.size());
  ASSERT_EQ(three.size(), sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    EXPECT_EQ(one[i].tokens, three[i].tokens) << i;
    EXPECT_EQ(one[i].attention, three[i].attention) << i;
    EXPECT_EQ(one[i].source.tokens, three[i].source.tokens) << i;
  }
}

}  // namespace
}  // namespace attnscope
